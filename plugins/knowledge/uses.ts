/**
 * The shared services the knowledge area uses: the list its manifest declares ("uses") and the type its code receives.
 */
import type { ServicesOf } from '../../app/plugin-services.js';
import type { KnowledgeService } from './service/knowledge-service.js';
import type { PageFeeder } from './service/page-feeder.js';

export const KNOWLEDGE_USES = [
  'config',
  'events',
  'features',
  'llm',
  'logger',
  'models',
  'parsing',
  'runtime',
  'semantic',
] as const;

export type KnowledgeShared = ServicesOf<(typeof KNOWLEDGE_USES)[number]>;

/** What the area's code works with: the declared shared services and what the area owns (built in open()). */
export type KnowledgeServices = KnowledgeShared & {
  /** The knowledge graph: extraction, the durable graph store and its reads. */
  knowledge: KnowledgeService;
  /** Feeds the pages Quarry reads into the installation's graph (knowledge.feedFromPages). */
  feeder: PageFeeder;
};
