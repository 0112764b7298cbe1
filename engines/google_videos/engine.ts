/**
 * Google's video tab (www.google.com/search?tbm=vid) in its basic-HTML form:
 * results look like web results (a heading inside a /url?q= link) with a
 * thumbnail, a duration badge and a "date · uploaded by" line.
 */
import { defineEngine, EngineParseError, type EngineResult } from '../../core/engine.js';
import { assertNotBlocked, googleSearchParams, headedResults } from '../_google/google.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, textOf } from '../_lib/html-document.js';
import { durationInText } from '../_video/duration.js';

const PAGE_SIZE = 10;
const SNIPPET_SELECTORS = ['.VwiC3b', '.s3v9rd', '.st', '.yDYNvb'];

function parseResults(html: string): EngineResult[] {
  return headedResults(html).map(({ url, title, container }) => {
    // The innermost snippet block, without the duration badge that may lead it.
    const selector = SNIPPET_SELECTORS.join(', ');
    const snippetElement = [...container.querySelectorAll(selector)].find(
      (element) => element.querySelector(selector) === null,
    );
    const snippet = textOf(snippetElement).replace(/^(\d{1,2}:)?\d{1,2}:\d{2}\s*/, '');
    const result: EngineResult = { url, title, snippet };
    const thumbnail = [...container.querySelectorAll('img')]
      .map((image) => absoluteHttpUrl(image.getAttribute('src')))
      .find(Boolean);
    if (thumbnail) result.thumbnail = thumbnail;
    // The duration badge: a clock time outside the title and snippet.
    const badges = [...container.querySelectorAll('span, div')]
      .filter((element) => element.children.length === 0)
      .map((element) => textOf(element));
    const duration = badges
      .map((text) => (/^(\d{1,2}:)?\d{1,2}:\d{2}$/.test(text) ? durationInText(text) : undefined))
      .find(Boolean);
    if (duration) result.extra = { duration };
    return result;
  });
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search', googleSearchParams(query, PAGE_SIZE, 'vid')),
    };
  },

  parseResponse(response) {
    if (response.body.trim() === '') throw new EngineParseError('google_videos answered with an empty page');
    const results = parseResults(response.body);
    assertNotBlocked('google_videos', response, results.length);
    return { results };
  },
});
