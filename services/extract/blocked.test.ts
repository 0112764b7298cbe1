import { describe, expect, it } from 'vitest';
import { loadPage, zyteTruth } from '../../test/fixtures/pages/load-page.js';
import { detectNonContent, readBlockSignals } from './blocked.js';
import { extract } from './extract.js';

const PROSE =
  'The committee met on Tuesday to review the budget and agreed to publish its findings next month after a ' +
  'public consultation. ';

describe('block pages from real captures', () => {
  it('Google "unusual traffic" reCAPTCHA page → captcha', () => {
    const result = extract(loadPage('google-recaptcha-block.html'), 'https://www.google.com/sorry/index?continue=x');
    expect(result.success).toBe(false);
    expect(result.failureReason).toBe('captcha');
    expect(result.text).toBe('');
    expect(result.contentQualityScore).toBe(0);
  });

  it('Stack Overflow "Human verification" page → captcha', () => {
    const result = extract(
      loadPage('stackoverflow-human-verification.html.gz'),
      'https://stackoverflow.com/nocaptcha?s=2ec00a50-d613-4b7c-a628-599d2bbe758b',
    );
    expect(result.success).toBe(false);
    expect(result.failureReason).toBe('captcha');
  });

  it('real articles pass', () => {
    for (const name of ['zyte-spacenews-clps', 'zyte-macrumors-macbook']) {
      expect(extract(loadPage(`${name}.html.gz`), zyteTruth(name).url).success).toBe(true);
    }
  });
});

// Hand-made pages, modelled on the vendors' public challenge and consent pages.
describe('hand-made block, consent and empty pages', () => {
  it('Cloudflare "Just a moment..." challenge → captcha', () => {
    const html = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
      <div class="main-wrapper"><h1>example.com</h1><h2 id="challenge-running">Checking if the site connection is secure</h2>
      <noscript>Enable JavaScript and cookies to continue</noscript></div>
      <script>window._cf_chl_opt={cvId:'3',cType:'managed'};</script></body></html>`;
    expect(extract(html, 'https://example.com/').failureReason).toBe('captcha');
  });

  it('DuckDuckGo anomaly page → captcha', () => {
    const html = `<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
      <div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div></body></html>`;
    expect(extract(html, 'https://html.duckduckgo.com/html/').failureReason).toBe('captcha');
  });

  it('DataDome and PerimeterX challenge markup → captcha', () => {
    const dataDome = `<html><head><title>example.com</title></head><body><iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe></body></html>`;
    const perimeterX = `<html><head><title>Access to this page has been denied</title></head><body><div id="px-captcha"></div><p>Press &amp; Hold to confirm you are a human (and not a bot).</p></body></html>`;
    expect(extract(dataDome, 'https://shop.example/').failureReason).toBe('captcha');
    expect(extract(perimeterX, 'https://shop.example/').failureReason).toBe('captcha');
  });

  it('Cloudflare "Sorry, you have been blocked" → blocked', () => {
    const html = `<html><head><title>Attention Required</title></head><body><h1>Sorry, you have been blocked</h1>
      <h2>You are unable to access example.com</h2><p>Cloudflare Ray ID: 7d1f</p></body></html>`;
    expect(extract(html, 'https://example.com/').failureReason).toBe('blocked');
  });

  it('"Access Denied" page → blocked', () => {
    const html = `<html><head><title>Access Denied</title></head><body><h1>Access Denied</h1><p>You don't have permission to access this server.</p></body></html>`;
    expect(extract(html, 'https://example.com/').failureReason).toBe('blocked');
  });

  it('consent interstitial with no content → consent_wall', () => {
    const html = `<html><head><title>Before you continue to Example</title></head><body>
      <form action="https://consent.example.com/save"><h1>Before you continue</h1>
      <p>We use cookies and data to deliver and maintain our services, measure audience engagement and site statistics, and develop new services.</p>
      <p>If you choose to Accept all, we will also use cookies and data to develop and improve new services and show personalised ads.</p>
      <button>Reject all</button><button>Accept all</button></form></body></html>`;
    expect(extract(html, 'https://www.example.com/').failureReason).toBe('consent_wall');
  });

  it('an empty JavaScript shell → empty', () => {
    const html = `<!doctype html><html><head><title>App</title></head><body><div id="app"></div><script>render()</script></body></html>`;
    expect(extract(html, 'https://app.example/').failureReason).toBe('empty');
  });

  it('a short article with a reCAPTCHA comment form and a cookie banner is content', () => {
    const html = `<html><head><title>Budget review | City Hall News</title>
      <script src="https://www.google.com/recaptcha/api.js"></script></head><body>
      <div id="cookie-banner">We use cookies. Accept all cookies or manage your consent in cookie settings.</div>
      <article><h1>Budget review</h1><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}</p></article>
      <section id="comments"><form><div class="g-recaptcha" data-sitekey="abc"></div><p>Please solve the captcha before posting.</p><button>Post comment</button></form></section>
      </body></html>`;
    const result = extract(html, 'https://news.example/budget');
    expect(result.success).toBe(true);
    expect(result.failureReason).toBeUndefined();
    expect(result.text).toContain('The committee met on Tuesday');
  });

  it('an article about CAPTCHAs is content', () => {
    const about =
      'Researchers asked whether a CAPTCHA can tell if you are a robot, and how often people fail the test. ';
    const html = `<html><head><title>Why CAPTCHAs keep getting harder</title></head><body><article><h1>Why CAPTCHAs keep getting harder</h1>
      ${Array.from({ length: 6 }, () => `<p>${about}${PROSE.repeat(3)}</p>`).join('')}</article></body></html>`;
    expect(extract(html, 'https://science.example/captcha').success).toBe(true);
  });
});

describe('detectNonContent thresholds', () => {
  const quiet = { challengeMarkup: false, captchaWidget: false, consentMarkup: false };

  it('strong signals stop counting once the page has a real main text', () => {
    const facts = {
      title: 'Just a moment...',
      pageText: 'Checking your browser before accessing example.com',
      signals: quiet,
    };
    expect(detectNonContent({ ...facts, mainWords: 20 })).toBe('captcha');
    expect(detectNonContent({ ...facts, mainWords: 600 })).toBeNull();
  });

  it('a CAPTCHA widget alone needs an almost empty page', () => {
    const signals = { ...quiet, captchaWidget: true };
    expect(detectNonContent({ title: 'Contact', pageText: 'Send us a message', signals, mainWords: 12 })).toBe(
      'captcha',
    );
    expect(detectNonContent({ title: 'Contact', pageText: PROSE.repeat(10), signals, mainWords: 180 })).toBeNull();
  });

  it('reads signals from markup, not from vendor scripts', () => {
    expect(readBlockSignals('<div id="px-captcha"></div>').challengeMarkup).toBe(true);
    expect(
      readBlockSignals('<script>this.pxElementId="px-captcha";window._pxAppId="PX1"</script>').challengeMarkup,
    ).toBe(false);
    expect(readBlockSignals('<div class="g-recaptcha" data-sitekey="x"></div>').captchaWidget).toBe(true);
    expect(readBlockSignals('<div id="onetrust-consent-sdk"></div>').consentMarkup).toBe(true);
  });
});
