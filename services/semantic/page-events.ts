/** The event that feeds the local page index and the knowledge graph: a page fetched and extracted successfully. */
export interface PageExtractedEvent {
  url: string;
  title: string;
  text: string;
  publishedDate: string | null;
  author: string | null;
}

export type PageEvents = {
  'page.extracted': (event: PageExtractedEvent) => void;
};

/** The part of the event bus the indexer needs. */
export interface PageEventSource {
  on(event: 'page.extracted', listener: (event: PageExtractedEvent) => void): unknown;
  off(event: 'page.extracted', listener: (event: PageExtractedEvent) => void): unknown;
}
