/**
 * GET and DELETE routes take their input from the query string and path.
 * Query strings only carry text, so values are converted by the type the
 * capability's JSON Schema declares; anything that does not convert is left
 * as text and rejected by validation with the field named.
 */
type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema };

function convert(value: string, schema: JsonSchema | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

export function queryToInput(query: Record<string, unknown>, jsonSchema: object): Record<string, unknown> {
  const schema = jsonSchema as JsonSchema;
  // No prototype: a "__proto__" parameter stays an ordinary key, which validation then refuses by name.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, raw] of Object.entries(query)) {
    const property = schema.properties?.[key];
    const type = Array.isArray(property?.type) ? property?.type[0] : property?.type;
    if (type === 'array') {
      const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(',')).filter((v) => v !== '');
      out[key] = parts.map((v) => convert(v, property?.items));
    } else {
      out[key] = Array.isArray(raw) ? raw.map((v) => convert(String(v), property)) : convert(String(raw), property);
    }
  }
  return out;
}
