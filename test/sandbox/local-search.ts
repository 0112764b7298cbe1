/**
 * A tiny search engine for tests whose answers depend on the query (the
 * sandbox web plays fixed recordings): it lists the documents it was given
 * that share words with the query, most shared words first, as JSON
 * `{items: [{link, name, summary, date}]}` at /search?q=… . Quarry reaches it
 * through a config-declared JSON engine (engineConfig). It records every query.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalDocument {
  url: string;
  title: string;
  text: string;
  published?: string;
}

export interface LocalSearch {
  origin: string;
  /** host:port, for outbound.allowHosts. */
  host: string;
  /** Queries received, in order. */
  queries(): string[];
  setDocuments(documents: LocalDocument[]): void;
  /** A customEngines entry for this engine. */
  engineConfig(id?: string, categories?: string[]): Record<string, unknown>;
  close(): Promise<void>;
}

const STOP = new Set(
  (
    'the and for are with what how does from that this into its their was were has have been about which who ' +
    'why when where'
  ).split(' '),
);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map((w) => w.replace(/(ies)$/, 'y').replace(/s$/, ''));
}

export async function startLocalSearch(initial: LocalDocument[] = []): Promise<LocalSearch> {
  let documents = initial;
  const received: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/search') {
      response.writeHead(404).end('not here');
      return;
    }
    const query = url.searchParams.get('q') ?? '';
    received.push(query);
    const wanted = new Set(words(query));
    const scored = documents
      .map((doc, order) => {
        const own = new Set(words(`${doc.title} ${doc.title} ${doc.text}`));
        let score = 0;
        for (const w of wanted) if (own.has(w)) score++;
        return { doc, order, score };
      })
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, Number(url.searchParams.get('n') ?? 10));
    const items = scored.map(({ doc }) => ({
      link: doc.url,
      name: doc.title,
      summary: doc.text.split(/(?<=\.)\s/)[0] ?? '',
      date: doc.published ?? null,
    }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    host: `127.0.0.1:${port}`,
    queries: () => [...received],
    setDocuments: (next) => {
      documents = next;
    },
    engineConfig: (id = 'local_web', categories = ['general']) => ({
      type: 'json',
      id,
      name: `Local test search (${id})`,
      categories,
      urlTemplate: `${origin}/search?q={query}`,
      results: 'items',
      fields: { url: 'link', title: 'name', snippet: 'summary', publishedDate: 'date' },
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
