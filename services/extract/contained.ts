/**
 * Containment for the optional parts of an extraction (JSON-LD, metadata,
 * title, markdown, images, links, page media, the scripted-content repairs):
 * a part that throws on a malformed page is dropped, with a warning, and the
 * page's main text survives. Only a failure of the main text itself fails the
 * page (extraction_error).
 */
import type { ExtractionPart, ExtractionWarning } from './types.js';

/** Collects the warnings of one extraction. */
export class PartWarnings {
  readonly list: ExtractionWarning[] = [];

  /** run(), or `fallback` (and a warning naming the part) when it throws. */
  contain<T>(part: ExtractionPart, run: () => T, fallback: T): T {
    try {
      return run();
    } catch (error) {
      this.list.push({ part, reason: reasonOf(error) });
      return fallback;
    }
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.slice(0, 200);
}
