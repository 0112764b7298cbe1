/**
 * A search engine whose results change over time, for monitor tests and the
 * monitor benchmark: played as SearXNG's JSON API by the sandbox web
 * (`web.answerEngine('searxng', feed.answerer())`). Each topic has a marker
 * word; a query holding the marker gets that topic's current items.
 */
import type { EngineAnswerer } from './engine-playback.js';

export interface FeedItem {
  url: string;
  title: string;
  content: string;
}

export class NewsFeed {
  private readonly items = new Map<string, FeedItem[]>();
  private readonly queries = new Map<string, string[]>();

  /** Replaces the marker's items. */
  set(marker: string, items: FeedItem[]): void {
    this.items.set(marker.toLowerCase(), [...items]);
  }

  /** Adds an item at the top of the marker's results. */
  publish(marker: string, item: FeedItem): void {
    this.items.set(marker.toLowerCase(), [item, ...(this.items.get(marker.toLowerCase()) ?? [])]);
  }

  /** Searches received for the marker (first pages), in order. */
  queriesFor(marker: string): string[] {
    return [...(this.queries.get(marker.toLowerCase()) ?? [])];
  }

  answerer(): EngineAnswerer {
    return (request) => {
      const query = (request.searchParams.get('q') ?? '').toLowerCase();
      const words = new Set(query.split(/[^a-z0-9_-]+/));
      const marker = [...this.items.keys()].find((candidate) => words.has(candidate));
      // One search asks for further pages when the first is short: count each search once.
      const firstPage = (request.searchParams.get('pageno') ?? '1') === '1';
      if (marker && firstPage) this.queries.set(marker, [...(this.queries.get(marker) ?? []), query]);
      const results = (marker ? this.items.get(marker)! : []).map((item, i) => ({
        ...item,
        engine: 'sandbox',
        engines: ['sandbox'],
        score: 1 / (i + 1),
        category: 'general',
      }));
      const body = JSON.stringify({
        query,
        number_of_results: results.length,
        results,
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      });
      return { body: Buffer.from(body), contentType: 'application/json', status: 200 };
    };
  }
}
