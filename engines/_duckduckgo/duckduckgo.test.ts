import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EngineCaptchaError, EngineParseError } from '../../core/engine.js';
import { duckduckgoRegion, extractVqd, isDuckduckgoBlockPage, requestAfterTokenPage } from './duckduckgo.js';

const tokenPage = readFileSync(new URL('../duckduckgo_news/fixtures/token-page.html', import.meta.url), 'utf8');
const botCheck =
  '<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>';

describe('the DuckDuckGo family', () => {
  it('reads the vqd token of a recorded query page, in either quoting, and nothing that only looks like one', () => {
    expect(extractVqd(tokenPage)).toMatch(/^\d-\d+/);
    expect(extractVqd('vqd="4-123-456"')).toBe('4-123-456');
    expect(extractVqd("vqd='4-123'")).toBe('4-123');
    expect(extractVqd('vqd=-')).toBeUndefined();
  });

  it('asks the JSON endpoint next with the given parameters, the token and the page as referer', () => {
    const next = requestAfterTokenPage(tokenPage, 'https://duckduckgo.com/', '/news.js', { q: 'hello', o: 'json' });
    const url = new URL(next.url);
    expect(url.pathname).toBe('/news.js');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'hello', o: 'json', vqd: extractVqd(tokenPage) });
    expect(next.headers).toMatchObject({ referer: 'https://duckduckgo.com/' });
  });

  it('tells the bot check (a CAPTCHA) from a page that merely lacks the token (a parse error)', () => {
    expect(() => requestAfterTokenPage(botCheck, 'https://duckduckgo.com', '/i.js', {})).toThrow(EngineCaptchaError);
    expect(() =>
      requestAfterTokenPage('<html><body>Are you a robot?</body></html>', 'https://duckduckgo.com', '/i.js', {}),
    ).toThrow(EngineCaptchaError);
    expect(() =>
      requestAfterTokenPage('<html><body>hello</body></html>', 'https://duckduckgo.com', '/i.js', {}),
    ).toThrow(EngineParseError);
    // A results page about anomalies is not a bot check.
    expect(isDuckduckgoBlockPage('<p>anomaly detection in time series</p>')).toBe(false);
  });

  it('maps a region or a bare language to kl', () => {
    expect(duckduckgoRegion('de', 'de-AT')).toBe('at-de');
    expect(duckduckgoRegion('fr')).toBe('fr-fr');
    expect(duckduckgoRegion('all')).toBe('wt-wt');
  });
});
