/** DI tokens, explicit so nothing depends on decorator metadata (esbuild-based tools do not emit it). */
export const TOKENS = {
  Config: Symbol('Config'),
  Logger: Symbol('Logger'),
  Outbound: Symbol('Outbound'),
  Stores: Symbol('Stores'),
  Events: Symbol('Events'),
  Metrics: Symbol('Metrics'),
  EngineHealth: Symbol('EngineHealth'),
  Engines: Symbol('Engines'),
  ExtractionPool: Symbol('ExtractionPool'),
  BrowserPool: Symbol('BrowserPool'),
  Scraper: Symbol('Scraper'),
  JobStore: Symbol('JobStore'),
  JobRunner: Symbol('JobRunner'),
  Webhooks: Symbol('Webhooks'),
  Features: Symbol('Features'),
  Registry: Symbol('Registry'),
} as const;
