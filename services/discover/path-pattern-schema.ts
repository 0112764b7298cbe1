/**
 * A crawl's path patterns as callers write them (Tavily's select_paths/exclude_paths, Firecrawl's
 * includePaths/excludePaths): JavaScript regular expressions, compiled here only to check them, so a
 * malformed one is a 400 naming its field. They are matched in the worker pool (services/extract/regex-test.ts).
 */
import { z } from 'zod';

export const MAX_PATH_PATTERN_LENGTH = 500;

export const pathPatternSchema = z
  .string()
  .min(1)
  .max(MAX_PATH_PATTERN_LENGTH)
  .refine(
    (source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be a valid regular expression' },
  );
