/**
 * Joins an engine's configured baseUrl (which may carry a path prefix, e.g.
 * a sandbox's http://127.0.0.1:PORT/engines/bing) with an endpoint path and
 * query parameters. Empty parameters are left out so requests stay short.
 */
export function endpointUrl(
  baseUrl: string,
  path: string,
  params: Record<string, string | number | undefined> = {},
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}${path}${text ? `?${text}` : ''}`;
}

/** Form-encodes a POST body, keeping empty fields (HTML forms send them). */
export function formBody(fields: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])).toString();
}
