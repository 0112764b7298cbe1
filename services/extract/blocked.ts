/**
 * Recognises pages that are not content: CAPTCHA and bot checks, block
 * pages, consent walls and empty pages. A signal decides only when the page
 * has little main text of its own, and weak signals (a reCAPTCHA widget, the
 * word "cookies") need an almost empty page, so an article that mentions
 * cookies or has a reCAPTCHA comment form still passes.
 */

import { countWords } from './words.js';

export type BlockReason = 'captcha' | 'blocked' | 'consent_wall' | 'empty';

/** Markup signals, read from the raw HTML (Readability later drops forms, scripts and iframes from the DOM). */
export interface BlockSignals {
  /** Bot-challenge machinery: Cloudflare challenge, PerimeterX, DataDome captcha, DuckDuckGo anomaly modal. */
  challengeMarkup: boolean;
  /** A CAPTCHA widget (reCAPTCHA, hCaptcha, Turnstile), which also appears on ordinary comment forms. */
  captchaWidget: boolean;
  /** A consent-management dialog (Google consent, OneTrust, Didomi, Quantcast, Sourcepoint, Cookiebot, …). */
  consentMarkup: boolean;
}

export interface PageFacts {
  title: string;
  /** Visible text of the whole page. */
  pageText: string;
  /** Words of the extracted main text. */
  mainWords: number;
  signals: BlockSignals;
}

// Markup of the challenge page itself, not the vendors' scripts, which ordinary protected pages also load.
const CHALLENGE_MARKUP =
  /_cf_chl_opt|cf-browser-verification|\sid="(challenge-form|challenge-running|challenge-stage|px-captcha|captcha-form)"|<iframe[^>]+captcha-delivery\.com\/captcha|class="[^"]*\banomaly-modal|action="\/sorry\/index/i;
const CAPTCHA_WIDGET_MARKUP =
  /class="[^"]*\b(g-recaptcha|h-captcha|cf-turnstile)\b|data-sitekey=|<iframe[^>]+src="[^"]*(recaptcha|hcaptcha)/i;
const CONSENT_MARKUP =
  /id="(onetrust-consent-sdk|onetrust-banner-sdk|didomi-host|qc-cmp2-ui|CybotCookiebotDialog|usercentrics-root|truste-consent-track)"|class="[^"]*\b(qc-cmp2-container|fc-consent-root)\b|id="sp_message_container|action="https:\/\/consent\.(google|youtube)\.|(id|class)="[^"]*consent-wall/i;

const CAPTCHA_TITLE =
  /^just a moment|attention required!? \| cloudflare|human verification|captcha|are you a (human|robot)|robot check|security check|verify(ing)? (you are|you're) human|access to this page has been denied|pardon our interruption|bot check/i;
const CAPTCHA_TEXT =
  /unusual traffic from your computer network|verify (that )?(you are|you're) (a )?human|confirm (that )?(you are|you're) (a )?human|are you a (human being|robot)\?|prove (that )?you('re| are) (not a robot|human)|checking (if the site connection is secure|your browser before accessing)|complete the security check to access|press (and|&) hold (the button )?to confirm|bots use duckduckgo too|enable javascript and cookies to continue|tell if you're a person or a script/i;
const WEAK_CAPTCHA_TEXT = /captcha|i'?m not a robot/i;
const BLOCKED_TITLE = /^(403\s*)?forbidden\b|^blocked\b/i;
const BLOCKED =
  /access denied|403 forbidden|you have been blocked|sorry, you have been blocked|error 1020|error 1015|request (blocked|rejected)|your (ip( address)?|request|access) has been (blocked|denied|banned)|you don't have permission to access|not authorized to access this (page|resource)|too many requests|rate limit exceeded|the owner of this website .{0,40}has banned/i;
const CONSENT_TITLE = /before you continue|consent|privacy|cookies/i;
const CONSENT =
  /before you continue|we value your privacy|we care about your privacy|your privacy choices|(accept|agree to|allow) (all )?cookies|cookie (settings|preferences|consent)|consent to (the use of )?(cookies|data)|manage (your )?(consent|privacy|cookie)|use cookies and data to|our partners (store|use|process)|legitimate interest/gi;

const CONSENT_VOCABULARY =
  /\b(cookies?|consent|privacy|partners|personal data|personali[sz]ed|advertising|preferences|tracking|vendors)\b/gi;
/** Share of the page's words that are consent vocabulary on a consent wall; a banner on a real page stays far below. */
const CONSENT_DENSITY = 0.03;

/** Above this many main words a page is content whatever else it says. */
const CAPTCHA_MAX_WORDS = 250;
const CHALLENGE_MAX_WORDS = 150;
const WEAK_CAPTCHA_MAX_WORDS = 60;
const BLOCKED_MAX_WORDS = 100;
const CONSENT_MAX_WORDS = 100;
/** Block pages are short; past this many words of visible text, weak signals and phrases in the text do not count. */
const WEAK_SIGNAL_MAX_PAGE_WORDS = 600;
/** Pages with fewer main words than this are empty (JavaScript shells, placeholders). */
export const EMPTY_BELOW_WORDS = 10;

const SAMPLE_CHARS = 4000;

export function readBlockSignals(html: string): BlockSignals {
  return {
    challengeMarkup: CHALLENGE_MARKUP.test(html),
    captchaWidget: CAPTCHA_WIDGET_MARKUP.test(html),
    consentMarkup: CONSENT_MARKUP.test(html),
  };
}

function countMatches(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/**
 * The page is mostly a consent dialog: a consent title, or consent phrases with consent vocabulary dense in the page
 * text.
 */
function isConsentWall(title: string, pageText: string, sample: string, signals: BlockSignals): boolean {
  const phrases = countMatches(`${title}\n${sample}`, CONSENT);
  if (phrases >= 1 && CONSENT_TITLE.test(title)) return true;
  if (phrases < 2) return false;
  const density = countMatches(pageText, CONSENT_VOCABULARY) / Math.max(1, countWords(pageText));
  return density >= CONSENT_DENSITY || (signals.consentMarkup && density >= CONSENT_DENSITY / 2);
}

export function detectNonContent(facts: PageFacts): BlockReason | null {
  const { title, mainWords, signals } = facts;
  const sample = facts.pageText.slice(0, SAMPLE_CHARS);

  if (mainWords < CAPTCHA_MAX_WORDS && (CAPTCHA_TITLE.test(title) || CAPTCHA_TEXT.test(sample))) return 'captcha';
  if (mainWords < CHALLENGE_MAX_WORDS && signals.challengeMarkup) return 'captcha';
  // A weak signal or a phrase in the text is evidence only on a short page: a long one that only mentions a
  // CAPTCHA or "access denied" is content, even when its main text was not found.
  const shortPage = countWords(facts.pageText) < WEAK_SIGNAL_MAX_PAGE_WORDS;
  if (
    mainWords < WEAK_CAPTCHA_MAX_WORDS &&
    (signals.captchaWidget || WEAK_CAPTCHA_TEXT.test(title) || (shortPage && WEAK_CAPTCHA_TEXT.test(sample)))
  )
    return 'captcha';
  if (
    mainWords < BLOCKED_MAX_WORDS &&
    (BLOCKED_TITLE.test(title) || BLOCKED.test(title) || (shortPage && BLOCKED.test(sample)))
  )
    return 'blocked';
  if (mainWords < CONSENT_MAX_WORDS && isConsentWall(title, facts.pageText, sample, signals)) return 'consent_wall';
  if (mainWords < EMPTY_BELOW_WORDS) return 'empty';
  return null;
}
