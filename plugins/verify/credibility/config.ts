/**
 * Configuration of source credibility: which rating files are loaded. The
 * ratings Quarry may ship (Lin et al. 2023, pc1) are bundled; rating sets
 * whose terms forbid shipping them (the MBFC-derived labels) are read from
 * files the installation supplies.
 */
import { z } from 'zod';

export const credibilityConfigSchema = z
  .object({
    /** Load the bundled Lin et al. (2023) domain quality ratings. */
    bundledRatings: z.boolean().default(true),
    /**
     * Rating files to load after the bundled set, later files winning field by field. The format is
     * read from the header: a CSV with `domain` and `pc1` (Lin et al.; other columns are ignored), or a
     * TSV with `source_url_normalized`, `fact` and `bias` (Baly et al.'s MBFC labels).
     */
    ratingsFiles: z
      .array(
        z.union([
          z.string().min(1),
          z.strictObject({
            path: z.string().min(1),
            /** Date of the data (ISO 8601); default the file's modification time. */
            date: z.iso.date().or(z.iso.datetime()).optional(),
          }),
        ]),
      )
      .default([]),
  })
  .strict()
  .prefault({});

export type CredibilityConfig = z.infer<typeof credibilityConfigSchema>;
