/** The shared services the rag area uses: the list its manifest declares ("uses") and the type its code receives. */
import type { ServicesOf } from '../../app/plugin-services.js';
import type { Corpora } from './corpora/corpora.js';

export const RAG_USES = [
  'config',
  'engines',
  'jobs',
  'llm',
  'logger',
  'models',
  'parsing',
  'scraper',
  'semantic',
  'webSearch',
] as const;

/** What the area's code works with: the declared shared services and what the area owns (built in open()). */
export type RagServices = ServicesOf<(typeof RAG_USES)[number]> & {
  /** RAG corpora in the embedded LanceDB under dataDir/corpora, opened on first use. */
  corpora: Corpora;
};
