/**
 * What page furniture looks like in markup: navigation, headers and footers,
 * sidebars, share bars, "related" boxes, cookie banners, ads, newsletter
 * sign-ups, comment forms. These are *candidates* for removal: the content
 * scorer keeps a candidate that holds a large part of the page's prose, since
 * some sites wrap their whole content in a <form> or a "sidebar-layout" div.
 */

/** Tags a site sets on purpose for furniture (shared with the content scorer). */
export const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer', 'header', 'dialog', 'menu']);
const FURNITURE_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
]);

/**
 * class/id tokens of furniture. Matched as whole tokens (split on space, "-"
 * and "_"), so "shared-content" is not "share" and "header" is not "head".
 */
const FURNITURE_TOKENS = new Set([
  'nav',
  'navbar',
  'navigation',
  'menu',
  'breadcrumb',
  'breadcrumbs',
  'sidebar',
  'footer',
  'masthead',
  'topbar',
  'share',
  'sharing',
  'social',
  'sociallinks',
  'sharebar',
  'addthis',
  'sharethis',
  'related',
  'recommended',
  'recommendations',
  'popular',
  'trending',
  'outbrain',
  'taboola',
  'more-stories',
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'banner',
  'popup',
  'modal',
  'overlay',
  'ad',
  'ads',
  'advert',
  'advertisement',
  'advertising',
  'adslot',
  'sponsored',
  'promo',
  'dfp',
  'newsletter',
  'subscribe',
  'subscription',
  'signup',
  'paywall',
  'skip',
  'skiplink',
  'comments',
  'comment-form',
  'respond',
  'disqus',
  'widget',
  'widgets',
  'tags',
  'tagcloud',
  'pagination',
  'pager',
  'reviews',
  'signature',
  'signatures',
  'author-bio',
  'authorbox',
  'byline',
  'authors',
  'dateline',
  'navbox',
  'linkback',
  'toolbar',
  'sr-only',
  'visually-hidden',
  'screen-reader-text',
]);
/** Compound names checked as substrings of the whole class/id (sites glue words together). */
const FURNITURE_SUBSTRINGS =
  /cookie|consent|newsletter|breadcrumb|social-?(share|links|media|icons)|share-?(bar|buttons|tools|links)|related-?(posts|articles|stories|content|links|products)|sidebar|advertis|skip-?(link|to)|read-?more-?(links|stories)|you-?may-?also|also-?like|recirc|outbrain|taboola|(post|entry|article)-?meta\b/i;
/** Names that mark content; a furniture token next to one of these is not furniture ("post-sidebar-content" stays). */
const CONTENT_HINT =
  /article|content|entry|post-?body|story|main|text|body|prose|markdown|description|product|thread|message|answer|question/i;

function names(element: Element): string {
  const id = element.getAttribute('id') ?? '';
  const cls = element.getAttribute('class') ?? '';
  return id || cls ? `${id} ${cls}` : '';
}

/** Page builders (Elementor, Divi, Beaver Builder, WPBakery) wrap the body text itself in "widgets" and "modules". */
const PAGE_BUILDER = /elementor|et_pb|fl-module|fl-builder|wpb_|vc_|siteorigin/i;
const BUILDER_TOKENS = new Set(['widget', 'widgets']);
const TAILWIND_UTILITY = /[:[\]()=]/;

function hasFurnitureToken(value: string): boolean {
  const builder = PAGE_BUILDER.test(value);
  const furniture = (token: string): boolean => FURNITURE_TOKENS.has(token) && !(builder && BUILDER_TOKENS.has(token));
  // Tailwind variants and arbitrary values ("lg:pt-[calc(var(--banner-height))]") style, they do not name.
  const words = value
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => !TAILWIND_UTILITY.test(word));
  for (const word of words) {
    if (furniture(word)) return true;
    for (const part of word.split(/[_-]+/)) if (furniture(part)) return true;
  }
  return FURNITURE_SUBSTRINGS.test(words.join(' '));
}

const OVERLAY_ROLES = new Set(['dialog', 'alertdialog']);
const CONSENT_NAME = /cookie|consent|onetrust|gdpr|didomi|usercentrics|truste|cookiebot|qc-cmp/i;

/**
 * Furniture that is never the content however much text it holds: dialogs
 * (a consent manager's settings run to hundreds of words), consent banners,
 * navigation (a mega-menu can out-write a product page) and page footers.
 */
export function isNeverContent(element: Element): boolean {
  // One holding the page's <main> or its title was left open (its end tag lost): a browser shows the page inside it.
  if (holdsPageStart(element)) return false;
  const tag = element.localName;
  if (tag === 'dialog' || tag === 'footer' || tag === 'nav') return true;
  // The site's header (not an article's own header with its title and byline, nor a section a page builder wrote as
  // a <header> around the article's paragraphs, which broken markup can put outside <main>).
  if (tag === 'header' && !element.closest('article, main, [role="main"]') && !holdsBodyParagraphs(element))
    return true;
  const modal = element.getAttribute('aria-modal');
  if (modal === 'true') return true;
  const role = element.getAttribute('role');
  // A dialog that says it is not modal (a filter flyout, a mini-cart) sits beside the page, not over it: it is
  // furniture judged by what it holds, so one left open around the listing keeps it.
  if (role && OVERLAY_ROLES.has(role) && modal !== 'false') return true;
  if (role === 'contentinfo' || role === 'navigation') return true;
  return CONSENT_NAME.test(names(element));
}

/** A paragraph of an article's body: a <p> of this many characters or more (a menu's promo blurb is shorter). */
const BODY_PARAGRAPH_CHARS = 150;
/** A site header holds no run of body paragraphs; an article holds several. */
const HEADER_BODY_PARAGRAPHS = 3;

export function isBodyParagraph(element: Element): boolean {
  return element.localName === 'p' && (element.textContent ?? '').trim().length >= BODY_PARAGRAPH_CHARS;
}

function holdsBodyParagraphs(element: Element): boolean {
  let found = 0;
  for (const paragraph of element.querySelectorAll('p'))
    if (isBodyParagraph(paragraph) && ++found >= HEADER_BODY_PARAGRAPHS) return true;
  return false;
}

/**
 * Whether page furniture holds the page's main landmark or its <h1>: then its end tag was lost, and the page is
 * inside it. (A site header's logo in an <h1> makes it no more than furniture: it is judged by what it holds.)
 */
export function holdsPageStart(element: Element): boolean {
  if (element.querySelector('main, [role="main"]')) return true;
  // A dialog's own title is no page's start: a terms-of-service modal that broken markup put inside the footer (or
  // inside another modal) leaves those furniture.
  for (const heading of element.querySelectorAll('h1')) {
    const dialog = heading.parentElement?.closest(DIALOG_SELECTOR);
    if (!dialog || !element.contains(dialog) || dialog === element) return true;
  }
  return false;
}
const DIALOG_SELECTOR = 'dialog, [role="dialog"], [role="alertdialog"], [aria-modal="true"]';

/** Section headings with a class: the article's own are built alike. (Card titles, often <h3>, are not sections.) */
const SECTION_HEADINGS = 'h2[class]';
/** Fewer alike headings than this inside furniture can be a teaser box's, made like the article's. */
const LEFT_OPEN_SECTIONS = 3;

/**
 * Whether furniture holds several section headings built like (same tag and class) one of the article's outside
 * it: a sign-up box or share bar holds no such sections, so its end tag was lost and the article's later sections
 * are inside it.
 */
export function holdsArticleSections(element: Element): boolean {
  const inside = element.querySelectorAll(SECTION_HEADINGS);
  if (inside.length < LEFT_OPEN_SECTIONS) return false;
  const outside = new Set<string>();
  for (const heading of element.ownerDocument.querySelectorAll(SECTION_HEADINGS))
    if (!element.contains(heading) && !inFurniture(heading)) outside.add(headingShape(heading));
  let alike = 0;
  for (const heading of inside) if (outside.has(headingShape(heading))) alike++;
  return alike >= LEFT_OPEN_SECTIONS;
}

function headingShape(heading: Element): string {
  return `${heading.localName}.${heading.getAttribute('class')}`;
}

/** True when the element looks like page furniture by its tag, ARIA role, or class/id names. */
export function looksLikeFurniture(element: Element): boolean {
  const tag = element.localName;
  if (FURNITURE_TAGS.has(tag)) return true;
  const role = element.getAttribute('role');
  if (role && FURNITURE_ROLES.has(role)) return true;
  if (tag === 'body' || tag === 'html' || tag === 'main' || tag === 'article') return false;
  const value = names(element);
  if (!value) return false;
  if (!hasFurnitureToken(value)) return false;
  // "article-footer" or "post-share" is still furniture; only a plain content name with a furniture word in it is not.
  return !(
    CONTENT_HINT.test(value) &&
    !/share|social|related|comment|reviews|cookie|consent|newsletter|footer|advert|promo|popular/i.test(value)
  );
}

/**
 * Whether a block of text sits in page furniture: the element or an ancestor
 * looks like furniture (looksLikeFurniture), an article's own <header> (its
 * title and byline) excepted. For block views without the content scorer
 * (enhanced search's content filters): nothing is rescued by the prose it holds.
 */
export function inFurniture(element: Element): boolean {
  for (let current: Element | null = element; current; current = current.parentElement) {
    const tag = current.localName;
    if (tag === 'body' || tag === 'html') return false;
    if (tag === 'header' && current.closest('article, main, [role="main"]')) continue;
    if (looksLikeFurniture(current)) return true;
  }
  return false;
}

const COMMENTS = /comment|respond|disqus|discussion|replies|reviews/i;

/** A comment or customer-review section (by its class/id), which on a forum is the content itself. */
export function looksLikeComments(element: Element): boolean {
  return COMMENTS.test(names(element));
}
