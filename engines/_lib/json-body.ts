import { EngineCaptchaError, EngineParseError } from '../../core/engine.js';

/**
 * Parses a JSON API answer. An HTML page where JSON was expected is a block
 * page (CAPTCHA when it says so); anything else unparsable is a parse error.
 */
export function parseJsonBody(body: string, engineName: string): unknown {
  const text = body.trim();
  if (text === '') throw new EngineParseError(`${engineName} answered with an empty body`);
  if (text.startsWith('<')) {
    if (/captcha|unusual traffic|are you a robot/i.test(text))
      throw new EngineCaptchaError(`${engineName} answered with a CAPTCHA page`);
    throw new EngineParseError(`${engineName} answered with HTML where JSON was expected`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EngineParseError(`${engineName} answered with malformed JSON: ${(error as Error).message}`);
  }
}

/** Narrowing helpers for untyped JSON. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
