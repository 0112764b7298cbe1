/**
 * What the knowledge area owns, built once when the service starts: the
 * knowledge service over the durable graph, the feed from the pages Quarry
 * reads, and the feature and runtime entries that describe them.
 */
import { modelFor } from '../../services/llm/model-choice.js';
import { KnowledgeService } from './service/knowledge-service.js';
import { PageFeeder } from './service/page-feeder.js';
import type { KnowledgeShared, KnowledgeServices } from './uses.js';

export function openKnowledgeArea(shared: KnowledgeShared): KnowledgeServices {
  const { config, logger } = shared;
  const knowledge = new KnowledgeService({
    dataDir: config.dataDir,
    redisUrl: config.redisUrl,
    llm: shared.llm,
    // The offline tagger runs in the extraction worker pool.
    tagEntities: (text, signal) => shared.parsing.entities(text, signal),
    tokenClassifier: () => shared.models.tokenClassifier(),
    embedder: () => shared.semantic.embedder(),
    logger: logger.child({ component: 'knowledge' }),
  });
  const feeder = new PageFeeder(
    shared.events,
    knowledge,
    { maxQueue: config.knowledge.feedQueue, maxChars: config.knowledge.feedMaxChars },
    logger.child({ component: 'knowledge-feeder' }),
  );
  const extractor = modelFor(shared.llm, 'entity-extraction');
  shared.features.set('knowledge_graph', () => ({
    available: true,
    detail:
      (knowledge.backendKind() === 'redis'
        ? 'graph on Redis (shared by every instance)'
        : 'graph in SQLite in the data directory') +
      `; extraction by ${extractor ? `${extractor.model} with the offline tagger as fallback` : 'the offline tagger'}` +
      (config.knowledge.feedFromPages ? '; fed from the pages Quarry reads' : ''),
    info: { backend: knowledge.backendKind(), feed_from_pages: config.knowledge.feedFromPages, feeder: feeder.stats() },
  }));
  shared.runtime.add('knowledge_feeder', () => feeder.stats());
  return { ...shared, knowledge, feeder };
}
