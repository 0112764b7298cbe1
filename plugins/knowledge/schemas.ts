/** Input and output shapes of the knowledge area (spec: "Knowledge Graph API", /api/v1/knowledge). */
import { z } from 'zod';
import { isoDateSchema } from '../../core/field-schemas.js';
import { ENTITY_TYPE_ALIASES, ENTITY_TYPES, RELATION_TYPES } from '../../services/entities/types.js';

export const MAX_TEXT_CHARS = 100_000;
export const MAX_RESULTS = 100;
export const MAX_GRAPH_NODES = 1000;

const entityType = z
  .string()
  .max(40)
  .trim()
  .toLowerCase()
  .transform((t) => ENTITY_TYPE_ALIASES[t] ?? t)
  .pipe(z.enum(ENTITY_TYPES, { error: `must be one of ${ENTITY_TYPES.join(', ')} (or company)` }));

const entityTypes = z
  .array(entityType)
  .min(1)
  .max(ENTITY_TYPES.length + 3);
const entityId = z
  .string()
  .max(20)
  .regex(/^ent_[0-9a-f]{16}$/, 'must be an entity id such as ent_0123456789abcdef');

export const entitySchema = z.object({
  id: z.string(),
  type: z.enum(ENTITY_TYPES),
  name: z.string(),
  description: z.string(),
  source_count: z.int(),
  metadata: z.object({
    aliases: z.array(z.string()).describe('Every name this entity was seen under'),
    merged: z
      .array(z.object({ alias: z.string(), rule: z.string() }))
      .describe('How each other name was resolved to this entity'),
    title: z.string().nullable().describe('A person’s most frequent title, else null'),
    degree: z.int().describe('Number of relations'),
    model_used: z.string().describe('What extracted the entity first'),
    sources: z
      .array(z.object({ url: z.string().nullable(), title: z.string().nullable(), date: z.string() }))
      .describe('The most recent sources (at most 10)'),
    created_at: z.string(),
    updated_at: z.string(),
    match: z.enum(['name', 'alias', 'words', 'meaning']).optional().describe('Search only: how the entity matched'),
    score: z.number().optional().describe('Search only: 0..1'),
  }),
});

export const relationshipSchema = z.object({
  from_entity: z.string(),
  to_entity: z.string(),
  type: z.enum(RELATION_TYPES),
  weight: z.number().describe('Number of distinct sources that state the relation'),
});

export const extractInputSchema = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_TEXT_CHARS, `must be at most ${MAX_TEXT_CHARS} characters`),
  types: entityTypes
    .optional()
    .describe(`Entity types to extract (${ENTITY_TYPES.join(', ')}; company = organization); all when absent`),
  store: z
    .boolean()
    .default(true)
    .describe('Extension: merge the result into the graph (default); false only extracts'),
  source_url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional()
    .describe('Extension: where the text comes from (sources are counted by URL, else by text)'),
  source_title: z.string().max(500).optional().describe('Extension: title of the source'),
  published_date: isoDateSchema.optional().describe('Extension: date of the source (recent activity)'),
});

export const extractOutputSchema = z.object({
  entities: z.array(entitySchema),
  relationships: z.array(
    relationshipSchema.extend({
      source: z.literal('direct'),
      evidence: z.string().optional().describe('Extension: the sentence of this text that states the relation'),
    }),
  ),
  processing_time_ms: z.int(),
  model_used: z
    .string()
    .describe(
      'Extension: what extracted: the language model, the configured token-classification model ' +
        '(models.entities), or offline-tagger',
    ),
  stored: z.boolean().describe('Extension: whether the result was merged into the graph'),
});

export const searchInputSchema = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(500),
  entity_types: entityTypes.optional(),
  max_results: z.int().min(1).max(MAX_RESULTS).default(10),
  include_relationships: z.boolean().default(true),
});

export const searchOutputSchema = z.object({
  entities: z.array(entitySchema),
  relationships: z.array(relationshipSchema),
  query: z.string(),
});

export const peopleInputSchema = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(500),
  organization: z.string().trim().min(1).max(200).optional(),
  role: z.string().trim().min(1).max(200).optional(),
  max_results: z.int().min(1).max(MAX_RESULTS).default(10),
});

export const personSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable().describe('Most frequent title seen, else the role its relations imply, else null'),
  organization: z
    .string()
    .nullable()
    .describe('The organization it leads, founded or works for (strongest relation), else null'),
  email: z.null().describe('Always null: contact data is withheld'),
  expertise: z.array(z.string()),
  recent_activity: z.array(
    z.object({ date: z.string(), title: z.string().nullable(), url: z.string().nullable(), snippet: z.string() }),
  ),
  relevance_score: z.number(),
});

export const peopleOutputSchema = z.object({ people: z.array(personSchema), query: z.string() });

export const entityInputSchema = z.strictObject({ entity_id: entityId });
export const entityOutputSchema = z.object({ entity: entitySchema, relationships: z.array(relationshipSchema) });

export const graphInputSchema = z.strictObject({
  entity_types: entityTypes.optional(),
  limit: z.int().min(1).max(MAX_GRAPH_NODES).default(100),
});

export const graphOutputSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.string(),
      type: z.enum(ENTITY_TYPES),
      name: z.string(),
      degree: z.int().describe('Extension: number of relations'),
    }),
  ),
  edges: z.array(z.object({ from: z.string(), to: z.string(), type: z.enum(RELATION_TYPES), weight: z.number() })),
});

export const deleteOutputSchema = z.object({ deleted: z.literal(true), entity_id: z.string() });
