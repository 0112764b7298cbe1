/**
 * Firecrawl's `actions` as the reader's page actions (services/scrape/page-actions.ts):
 * the same names and fields; the fields the reader does not know (a screenshot's
 * `viewport`, a `pdf` action's options) are dropped, as unknown fields are
 * everywhere on this surface, and a bad action is INVALID_INPUT naming its index.
 */
import { AppError } from '../../core/errors.js';
import { pageActionSchema, type PageAction } from '../../services/scrape/page-actions.js';

const FIELDS: Record<string, string[]> = {
  wait: ['milliseconds', 'selector'],
  click: ['selector', 'all'],
  write: ['text'],
  press: ['key'],
  scroll: ['direction', 'selector'],
  screenshot: ['fullPage', 'quality'],
  scrape: [],
  executeJavascript: ['script'],
};

export function readerActions(actions: Array<Record<string, unknown>> | undefined): PageAction[] | undefined {
  if (!actions || actions.length === 0) return undefined;
  return actions.map((action, index) => {
    const type = String(action.type);
    const known = FIELDS[type];
    if (!known)
      throw new AppError(
        'INVALID_INPUT',
        `invalid input: actions.${index}.type: "${type}" is not an action this server runs (${Object.keys(FIELDS).join(', ')})`,
      );
    const kept = Object.fromEntries(Object.entries(action).filter(([key]) => key === 'type' || known.includes(key)));
    const parsed = pageActionSchema.safeParse(kept);
    if (!parsed.success)
      throw new AppError(
        'INVALID_INPUT',
        `invalid input: actions.${index} (${type}): ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
      );
    return parsed.data;
  });
}
