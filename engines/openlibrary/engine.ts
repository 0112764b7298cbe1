/** Open Library book search (search.json). */
import { defineEngine, EngineParseError, EngineRateLimitedError, type EngineResult } from '../../core/engine.js';

const PAGE_SIZE = 10;
const SITE = 'https://openlibrary.org';
const FIELDS = 'key,title,subtitle,author_name,first_publish_year,cover_i,edition_count,isbn,publisher';

interface Book {
  key?: string;
  title?: string;
  subtitle?: string;
  author_name?: string[];
  first_publish_year?: number;
  cover_i?: number;
  edition_count?: number;
  isbn?: string[];
  publisher?: string[];
}

function bookToResult(book: Book): EngineResult | undefined {
  if (!book.key || !book.title) return undefined;
  const authors = book.author_name ?? [];
  const snippet = [
    authors.join(', '),
    book.first_publish_year ? `first published ${book.first_publish_year}` : '',
    book.edition_count ? `${book.edition_count} editions` : '',
  ];
  return {
    url: `${SITE}${book.key.startsWith('/') ? '' : '/'}${book.key}`,
    title: book.subtitle ? `${book.title}: ${book.subtitle}` : book.title,
    snippet: snippet.filter(Boolean).join(' — '),
    publishedDate: book.first_publish_year ? String(book.first_publish_year) : undefined,
    authors: authors.length > 0 ? authors : undefined,
    thumbnail: book.cover_i ? `https://covers.openlibrary.org/b/id/${book.cover_i}-M.jpg` : undefined,
    extra: { isbn: book.isbn?.[0], publisher: book.publisher?.[0], editions: book.edition_count },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      q: ctx.query.query,
      page: String(ctx.query.page),
      limit: String(PAGE_SIZE),
      fields: FIELDS,
    });
    return { method: 'GET', url: `${base}/search.json?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let body: { docs?: Book[] };
    try {
      body = JSON.parse(response.body) as { docs?: Book[] };
    } catch {
      throw new EngineParseError('open library did not answer JSON');
    }
    return { results: (body.docs ?? []).map(bookToResult).filter((result) => result !== undefined) };
  },
});
