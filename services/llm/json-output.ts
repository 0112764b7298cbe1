/** Turning a model's "JSON" answer into a value: models wrap it in fences or prose often enough to tolerate. */
import { AppError } from '../../core/errors.js';

export function parseModelJson(text: string): unknown {
  for (const candidate of jsonCandidates(text)) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next reading
    }
  }
  throw new AppError('UPSTREAM_FAILED', 'the model did not return valid JSON', {
    details: { excerpt: text.slice(0, 200) },
  });
}

function* jsonCandidates(text: string): Iterable<string> {
  const trimmed = text.trim();
  yield trimmed;
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)\n?\s*```/.exec(trimmed);
  if (fenced?.[1]) yield fenced[1].trim();
  // Prose around a single object or array: take the outermost brackets.
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const start = trimmed.indexOf(open);
    const end = trimmed.lastIndexOf(close);
    if (start !== -1 && end > start) yield trimmed.slice(start, end + 1);
  }
}

/** The instruction both providers add to the system prompt when JSON is asked for. */
export function jsonInstruction(schema: object | undefined): string {
  const base = 'Respond with a single JSON value only: no prose before or after it and no code fences.';
  return schema ? `${base} It must conform to this JSON Schema:\n${JSON.stringify(schema)}` : base;
}
