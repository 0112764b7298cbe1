/** The knowledge section of the configuration file. */
import { z } from 'zod';

export const knowledgeConfigSchema = z
  .object({
    /**
     * Feed the graph from what Quarry already reads: every page that search,
     * research or scraping extracts is queued for entity extraction in the
     * background. Off by default (it stores what users read).
     */
    feedFromPages: z.boolean().default(false),
    /** Pages waiting for extraction at most; pages beyond it are dropped and counted. */
    feedQueue: z.number().int().min(1).max(10_000).default(100),
    /** Characters of a page given to extraction (its lead carries most names). */
    feedMaxChars: z.number().int().min(500).max(100_000).default(20_000),
  })
  .strict()
  .prefault({});

export type KnowledgeConfig = z.infer<typeof knowledgeConfigSchema>;
