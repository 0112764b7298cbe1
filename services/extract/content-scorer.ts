/**
 * Quarry's main-content finder, for every kind of page (articles, forums,
 * products, listings, documentation, service pages):
 *
 * 1. measure prose weight everywhere (content-stats.ts);
 * 2. drop page furniture (boilerplate.ts) unless it holds a large share of the
 *    page's prose — then it is the content wearing an unlucky class name.
 *    Navigation, dialogs, consent managers and footers go whatever they hold;
 * 3. take a container the site names as the body or a thread of named posts;
 *    else walk down from <body> into the child holding most of the prose while
 *    that child still holds most of the page's prose: the walk stops at the
 *    smallest element that contains the content, whether that is one article
 *    body, a thread of posts or a product's description and specifications.
 *    A second walk counts link text too, and wins on listing pages;
 * 4. inside it, drop link lists that are a minor part of it ("related",
 *    tag lists, in-article menus), leaving the cards of a listing whole.
 *
 * It rewrites the document in place (removed elements are detached).
 */
import {
  FURNITURE_TAGS,
  holdsArticleSections,
  holdsPageStart,
  isNeverContent,
  looksLikeComments,
  looksLikeFurniture,
} from './boilerplate.js';
import { alikeCounts, LIST_ITEMS, signature } from './alike.js';
import { ContentStats, isSkipped } from './content-stats.js';
import { removeDuplicateSiblings } from './duplicate-siblings.js';
import { followingWithin, precedingWithin } from './document-order.js';
import { riverAfter } from './teaser-river.js';
import { trimTail } from './tail-trim.js';
import { HEADING_TAGS } from './html-tags.js';

export interface ScorerSettings {
  /** Furniture holding at least this share of the page's prose is kept. */
  keepFurnitureShare: number;
  /** The walk enters a child holding at least this share of the page's prose. */
  descendShare: number;
  /** A container named as the article body is taken when it holds this share of the page's prose. */
  namedShare: number;
  /** A link list is dropped when links make this share of its text… */
  linkDensity: number;
  /** …and it holds less than this share of the chosen element's text. */
  minorShare: number;
  /** The page is a discussion (forum thread, comments page; not Q&A): its comment sections are the content. */
  discussion?: boolean;
}

export const DEFAULT_SETTINGS: ScorerSettings = {
  keepFurnitureShare: 0.5,
  descendShare: 0.7,
  namedShare: 0.3,
  linkDensity: 0.6,
  minorShare: 0.15,
};

/** Furniture whose text is mostly links is navigation, however much of it there is. */
const MENU_LINK_SHARE = 0.6;

/**
 * About 150 words of prose: a page with that much outside its comments has content of its own, however long the
 * discussion under it.
 */
const OWN_PROSE_WEIGHT = 800;

/**
 * Replies a stray end tag put after their comment section's end: blocks following it built like the blocks inside
 * it (same tag and first class: a reply's `div.comment`). They are still the discussion, not the page's own prose;
 * the page's own prose (the post, the article) comes before its comments.
 */
function displacedRepliesWeight(section: Element, stats: ContentStats): number {
  const inside = new Set<string>();
  for (const element of section.querySelectorAll('div[class], section[class], article[class], li[class]'))
    inside.add(signature(element));
  let weight = 0;
  const visit = (element: Element): void => {
    if (element.getAttribute('class')?.trim() && inside.has(signature(element))) weight += stats.of(element).weight;
    else for (const child of childElements(element)) visit(child);
  };
  for (const next of followingWithin(section, null)) visit(next);
  return weight;
}

/** schema.org types of a thread's posts (not of reviews, whose texts are named alike too). */
const POST_TYPES = ['DiscussionForumPosting', 'Comment', 'Answer', 'Question', 'SocialMediaPosting']
  .map((type) => `[itemtype*="${type}"]`)
  .join(', ');
/** This many texts named alike make a thread. */
const THREAD_POSTS = 3;

/** A named body part counts when it holds this share of the page's prose. */
const NAMED_PART_SHARE = 0.15;

/** Units of content, never containers of it: the walk stops above them so a lone paragraph keeps its heading. */
const CONTENT_UNITS = new Set([
  'p',
  ...HEADING_TAGS,
  'li',
  'dt',
  'dd',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'dl',
  'figure',
  'figcaption',
  'a',
  'span',
  'b',
  'i',
  'em',
  'strong',
  'code',
  'tr',
  'tbody',
  'thead',
]);

const SHORT_BLOCK_CHARS = 80;
const SHORT_BLOCK_LINK_DENSITY = 0.35;
// Tables are left alone: an infobox or a specification table is link-dense and still content.
const LINK_LIST_CANDIDATES = new Set([
  'ul',
  'ol',
  'div',
  'section',
  'p',
  'dl',
  'nav',
  'span',
  'li',
  'header',
  'footer',
  'aside',
]);

function childElements(element: Element): Element[] {
  const children: Element[] = [];
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) children.push(child);
  return children;
}

/**
 * The page's prose weight, how much of it its comment sections hold (the outermost ones, before any removal), and
 * its named article body.
 */
interface PageWeights {
  root: number;
  comments: number;
  namedBody: Element | null;
}

/**
 * Furniture (`element` looks like it; `comments` says whether it is a comment
 * section) goes unless it holds much of the page's prose. A comment section
 * goes even then when the page has prose of its own outside it (an article
 * with a long discussion); on a forum the posts are the page, so they stay.
 * The page's other comment sections are not its own prose: a stray end tag that
 * splits one thread in two must not make each half the other's article.
 */
function isRemovable(
  element: Element,
  comments: boolean,
  stats: ContentStats,
  page: PageWeights,
  settings: ScorerSettings,
  hasBody: boolean,
): boolean {
  if (isCardHeader(element, stats)) return false;
  if (isNeverContent(element)) return true;
  const own = stats.of(element);
  // On a discussion page the comment sections are the replies, unless they are mostly links.
  if (comments && settings.discussion && own.linkChars <= own.chars * MENU_LINK_SHARE) return false;
  // Several paragraphs of unlinked prose under a class name only ("paywall", "byline-wrapper") are the text itself.
  if (!comments && isProseBlock(element, own)) return false;
  if (!comments && holdsArticleSections(element)) return false;
  if (!comments && page.namedBody && element.contains(page.namedBody)) return false;
  const pageWeight = comments ? page.root - Math.max(0, page.comments - own.weight) : page.root;
  if (own.weight < pageWeight * settings.keepFurnitureShare) return true;
  // A banner or a modal left open around the page's <main> or title is no mega-menu, however many links the page has.
  if (holdsPageStart(element)) return false;
  // A mega-menu holds much of the page's text, all of it links; one left open around the content holds its prose too.
  if (own.linkChars > own.chars * MENU_LINK_SHARE)
    return !holdsProseBlock(element, stats, pageWeight * settings.keepFurnitureShare);
  if (!comments) return false;
  const outside = pageWeight - own.weight - displacedRepliesWeight(element, stats);
  // A page that names its article body has content of its own, however short the post above the comments.
  if (hasBody && outside > 0) return true;
  return outside >= OWN_PROSE_WEIGHT;
}

/**
 * The page's named article body: the heaviest container named as one, when it holds a fair share of the page's
 * prose. Furniture holding it was left open around it (a share bar whose end tags were lost before the body); a
 * teaser box's named snippets are lighter than the article's own body.
 */
function namedBodyOf(root: Element, stats: ContentStats): Element | null {
  let heaviest: Element | null = null;
  for (const named of root.querySelectorAll(CONTENT_SELECTOR))
    if (!heaviest || stats.of(named).weight > stats.of(heaviest).weight) heaviest = named;
  return heaviest && stats.of(heaviest).weight >= stats.of(root).weight * NAMED_PART_SHARE ? heaviest : null;
}

/**
 * A block of prose nearly free of links (isProseBlock's measure) holding `weight` or more, not furniture itself: a
 * menu's promo blurbs are short, so furniture holding half the page's prose in one such block is furniture whose end
 * tag was lost (an in-page nav left open around a listing and its description).
 */
function holdsProseBlock(element: Element, stats: ContentStats, weight: number): boolean {
  for (const inner of element.querySelectorAll('*')) {
    const own = stats.of(inner);
    if (own.weight >= weight && own.linkChars <= own.chars * PROSE_LINK_SHARE && !looksLikeFurniture(inner))
      return true;
  }
  return false;
}

/**
 * The <header> of one of many articles built alike (a news river's cards): it holds the card's headline and teaser.
 * A header that is most of its card counts the cards over the page, not in one parent: a river the layout splits
 * into groups of three (around ads, or a page cut short) is still a river. (A forum post's header, its author and
 * date, is a small part of the post, and stays furniture.)
 */
function isCardHeader(element: Element, stats: ContentStats): boolean {
  if (element.localName !== 'header') return false;
  const card = element.closest('article');
  const list = card?.parentElement;
  if (!card || !list) return false;
  const wanted = signature(card);
  if ((alikeCounts(childElements(list)).get(wanted) ?? 0) >= LIST_ITEMS) return true;
  if (stats.of(element).chars < stats.of(card).chars * CARD_HEADER_SHARE) return false;
  let alike = 0;
  for (const article of element.ownerDocument.querySelectorAll('article'))
    if (signature(article) === wanted && ++alike >= LIST_ITEMS) return true;
  return false;
}
const CARD_HEADER_SHARE = 0.5;

/** About three full paragraphs. */
const PROSE_BLOCK_WEIGHT = 600;
/** Prose has at most this share of its text in links. */
const PROSE_LINK_SHARE = 0.1;
/**
 * Teaser boxes hold prose too; their names say what they are. ("widget" is not here: page builders name text blocks
 * so.)
 */
const TEASER_NAME = /related|recommend|promo|teaser|more|cta/i;

/** Prose nearly free of links, furniture by its class name only (not by tag or role, which a site sets on purpose). */
function isProseBlock(element: Element, own: { weight: number; chars: number; linkChars: number }): boolean {
  if (own.weight < PROSE_BLOCK_WEIGHT || own.linkChars > own.chars * PROSE_LINK_SHARE) return false;
  if (FURNITURE_TAGS.has(element.localName) || element.hasAttribute('role')) return false;
  return !TEASER_NAME.test(element.getAttribute('class') ?? '');
}

/**
 * `inKeptComments`: inside a comment section judged to be the content, the
 * threads and replies nested in it (named like comments too) are that content.
 */
function removeFurniture(
  element: Element,
  stats: ContentStats,
  page: PageWeights,
  settings: ScorerSettings,
  hasBody: boolean,
  inKeptComments = false,
): void {
  for (const child of childElements(element)) {
    const furniture = looksLikeFurniture(child);
    if (isSkipped(child)) {
      // Hidden furniture (a dialog, a menu, a tooltip) goes too: the text reads hidden parts of the content.
      if (furniture) child.remove();
      continue;
    }
    const comments = furniture && looksLikeComments(child);
    if (inKeptComments && comments && !isNeverContent(child))
      removeFurniture(child, stats, page, settings, hasBody, true);
    else if (furniture && isRemovable(child, comments, stats, page, settings, hasBody)) child.remove();
    else removeFurniture(child, stats, page, settings, hasBody, inKeptComments || comments);
  }
}

/** Weight of the outermost comment sections (furniture named like comments) under `root`. */
function commentSectionsWeight(root: Element, stats: ContentStats): number {
  let total = 0;
  for (const child of childElements(root)) {
    if (isSkipped(child)) continue;
    if (looksLikeFurniture(child) && looksLikeComments(child)) total += stats.of(child).weight;
    else total += commentSectionsWeight(child, stats);
  }
  return total;
}

/** The page names an article body outside any comment section, with some prose in it. */
function namesBody(root: Element, stats: ContentStats): boolean {
  for (const candidate of root.querySelectorAll(CONTENT_SELECTOR)) {
    if (stats.of(candidate).weight < NAMED_BODY_MIN_WEIGHT) continue;
    let inComments = false;
    for (let e: Element | null = candidate; e && e !== root && !inComments; e = e.parentElement)
      inComments = looksLikeComments(e);
    if (!inComments) return true;
  }
  return false;
}

/** About 40 words: a short post introducing an open thread still counts as the page's own content. */
const NAMED_BODY_MIN_WEIGHT = 200;

/**
 * A story a teaser river can follow: several paragraphs of prose nearly free of links that the site marks as an
 * article (it is one, is in one, holds one, or is named so). A listing's intro above its items is not marked so, and
 * there the items are the content.
 */
function isStory(element: Element, stats: ContentStats): boolean {
  const own = stats.of(element);
  if (own.weight < PROSE_BLOCK_WEIGHT || own.linkChars > own.chars * PROSE_LINK_SHARE) return false;
  return (
    element.closest('article, [itemtype*="Article"]') !== null ||
    element.querySelectorAll('article').length === 1 ||
    STORY_NAME.test(element.getAttribute('class') ?? '')
  );
}
const STORY_NAME = /\b(article|post|story)\b/i;

function descend(root: Element, stats: ContentStats, share: number): Element {
  let needed = stats.of(root).weight * share;
  let current = root;
  for (;;) {
    let best: Element | null = null;
    let bestWeight = -1;
    for (const child of childElements(current)) {
      if (CONTENT_UNITS.has(child.localName)) continue;
      const weight = stats.of(child).weight;
      if (weight > bestWeight) {
        best = child;
        bestWeight = weight;
      }
    }
    if (!best || bestWeight <= 0) return current;
    if (bestWeight < needed) {
      const river = isStory(best, stats) ? riverAfter(best, stats) * share : 0;
      if (bestWeight < needed - river) return current;
      needed -= river;
    }
    current = best;
  }
}

/**
 * Drops link lists that are a minor part of the content. Link-heavy siblings
 * are judged together: many small link-heavy cards side by side are the
 * listing itself, not a "related" box.
 */
function removeLinkLists(
  element: Element,
  stats: ContentStats,
  settings: ScorerSettings,
  containerChars: number,
): void {
  const children = childElements(element);
  // Inside running text (the parent has words of its own) a linked <span> is part of a sentence, not a list.
  const inline = hasOwnText(element);
  const linkHeavy = children.map((child) => {
    const own = stats.of(child);
    if (!LINK_LIST_CANDIDATES.has(child.localName) || own.chars === 0 || inline) return false;
    const density = own.linkChars / own.chars;
    // A short line that is mostly a link ("Related: MacBook Pro", "Read more") is a pointer elsewhere.
    return density >= settings.linkDensity || (own.chars < SHORT_BLOCK_CHARS && density >= SHORT_BLOCK_LINK_DENSITY);
  });
  const heavyChars = children.reduce((sum, child, i) => sum + (linkHeavy[i] ? stats.of(child).chars : 0), 0);
  const dropHeavy = heavyChars < containerChars * settings.minorShare;
  const alike = alikeCounts(children);
  children.forEach((child, i) => {
    if (linkHeavy[i] && dropHeavy) child.remove();
    // Inside one of many cards built alike (a listing's items), the linked title and teaser are the item itself.
    else if (!linkHeavy[i] && (alike.get(signature(child)) ?? 0) < LIST_ITEMS)
      removeLinkLists(child, stats, settings, containerChars);
  });
}

function hasOwnText(element: Element): boolean {
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 3 && /[\p{L}\p{N}]/u.test((node as Text).data)) return true;
  }
  return false;
}

const CONTENT_SELECTOR = [
  '[itemprop="articleBody"]',
  '[itemprop="text"]',
  '.entry-content',
  '.post-content',
  '.article-body',
  '.article-content',
  '.story-body',
  '.post-body',
  '.articleBody',
  '.article__body',
  '.article-text',
  '.story-content',
  '.single-post-content',
  '#article-body',
  '.article-body-component',
  '.body__inner-container',
  '.paywall',
  '.caas-body',
  '.td-post-content',
  '.c-entry-content',
].join(', ');

function commonAncestor(elements: Element[]): Element | null {
  let ancestor: Element | null = elements[0] ?? null;
  for (const element of elements.slice(1)) {
    while (ancestor && !ancestor.contains(element)) ancestor = ancestor.parentElement;
  }
  return ancestor;
}

/**
 * A container the site itself names as the article body, when it holds enough
 * of the page's prose. Some sites split the body into several named parts
 * (around ads or embeds): then their common ancestor is the body.
 */
function namedContent(root: Element, stats: ContentStats, share: number): Element | null {
  const rootWeight = stats.of(root).weight;
  const named = Array.from(root.querySelectorAll(CONTENT_SELECTOR));
  const parts = named.filter((candidate) => stats.of(candidate).weight >= rootWeight * NAMED_PART_SHARE);
  // A thread names every post's text alike (Discourse's itemprop="text"): the posts together, not the longest one, are
  // the content.
  const posts = named.filter(
    (candidate) =>
      candidate.getAttribute('itemprop') === 'text' &&
      stats.of(candidate).weight > 0 &&
      candidate.closest(POST_TYPES) !== null,
  );
  if (posts.length >= THREAD_POSTS) {
    const thread = commonAncestor(posts);
    if (thread && stats.of(thread).weight >= rootWeight * share) return thread;
  }
  const outermost = parts.filter((part) => !parts.some((other) => other !== part && other.contains(part)));
  const chosen = outermost.length > 1 ? commonAncestor(outermost) : (outermost[0] ?? null);
  return chosen && stats.of(chosen).weight >= rootWeight * share ? chosen : null;
}

/** Blocks a body is written in, by kind: a continuation is a block of a kind the body holds. */
const TEXT_BLOCK_KINDS = new Map<string, string>([
  ['p', 'p'],
  ...HEADING_TAGS.map((tag) => [tag, 'heading'] as const),
  ...['ul', 'ol', 'li', 'dl', 'dt', 'dd'].map((tag) => [tag, 'list'] as const),
  ...['table', 'tbody', 'tr', 'td', 'th'].map((tag) => [tag, 'table'] as const),
  ['blockquote', 'blockquote'],
  ['pre', 'pre'],
  ['figure', 'figure'],
]);
/** Generic containers match by tag and first class: a bare <div> after the body says nothing about where it belongs. */
const CLASSED_CONTAINERS = new Set(['div', 'section']);
/** About three paragraphs: less than that after the body is not worth the risk of taking a footer's blurb. */
const CONTINUATION_MIN_WEIGHT = 600;

function continuationKind(element: Element): string | null {
  const kind = TEXT_BLOCK_KINDS.get(element.localName);
  if (kind) return kind;
  if (!CLASSED_CONTAINERS.has(element.localName)) return null;
  return element.getAttribute('class')?.trim() ? signature(element) : null;
}

/**
 * A stray end tag ends the named body early (a browser's tree builder does the same): the rest of what the site
 * wrote as the body then follows the container, as siblings of it or of its ancestors, or inside wrappers without a
 * class (what the broken markup opened). Blocks there built like the body's own (the kind and class of a block
 * inside it) that hold prose join it again; so much prose built alike is not a footer's. Blocks inside containers
 * the site named otherwise (a related box's cards, a sidebar) are not looked into. Furniture is gone already.
 * The same holds when the walk stopped in a wrapper without class or id (a stray <form> or <font> the broken markup
 * opened around part of the body): sites name their own containers; a named pick the walk found is left as it is.
 */
function rejoinStrayContinuation(named: Element, root: Element, stats: ContentStats): void {
  const inside = new Set<string>();
  for (const element of named.querySelectorAll('*')) {
    const kind = continuationKind(element);
    if (kind) inside.add(kind);
  }
  const found: Element[] = [];
  const collect = (element: Element): void => {
    const own = stats.of(element);
    if (own.chars === 0) return;
    const kind = continuationKind(element);
    if (kind && inside.has(kind)) {
      if (own.linkChars <= own.chars * CONTINUATION_LINK_SHARE) found.push(element);
    } else if (!TEXT_BLOCK_KINDS.has(element.localName) && !element.getAttribute('class')?.trim())
      for (const child of childElements(element)) collect(child);
  };
  for (const next of followingWithin(named, root)) collect(next);
  const weight = found.reduce((sum, element) => sum + stats.of(element).weight, 0);
  if (weight < CONTINUATION_MIN_WEIGHT) return;
  for (const element of found) named.appendChild(element);
}

/** A wrapper the site did not name: no class, no id. */
const isUnnamed = (element: Element): boolean => !element.getAttribute('class')?.trim() && !element.id;

/** A continuation is prose: a block with more link text than this share is a list of pointers. */
const CONTINUATION_LINK_SHARE = 0.3;

/** A block of prose next to the body: an intro or lead paragraph the site keeps outside the body's container. */
function isLead(element: Element, stats: ContentStats): boolean {
  const own = stats.of(element);
  const name = element.getAttribute('class') ?? '';
  return (
    own.weight >= LEAD_MIN_WEIGHT &&
    own.linkChars <= own.chars * 0.2 &&
    !TEASER_NAME.test(name) &&
    !/comment/i.test(name)
  );
}

/** About 20 words: one full sentence. */
const LEAD_MIN_WEIGHT = 120;

/**
 * The walk stops at the element holding most of the prose, which can leave
 * the lead paragraph just above it behind. When the preceding siblings hold
 * such prose, the parent becomes the content, stripped of every sibling that
 * is neither the body nor a lead (the teasers and widgets around them).
 */
function withLeadSiblings(chosen: Element, root: Element, stats: ContentStats): Element {
  const parent = chosen.parentElement;
  if (!parent || chosen === root || CONTENT_UNITS.has(chosen.localName)) return chosen;
  const siblings = childElements(parent);
  const before = siblings.slice(0, siblings.indexOf(chosen));
  const leads = before.filter((sibling) => isLead(sibling, stats));
  if (leads.length === 0) return chosen;
  for (const sibling of siblings)
    if (sibling !== chosen && !leads.includes(sibling) && !/^h[1-6]$/.test(sibling.localName)) sibling.remove();
  return parent;
}

/**
 * When weighing lists, link text weighs this share of plain text, so a list of stories, jobs or products can be the
 * content.
 */
const LIST_LINK_WEIGHT = 0.4;
/**
 * The walk by prose alone wins unless its pick holds less prose than this
 * share of what the walk that counts links picked: an article with a teaser
 * list beside it keeps its body; a listing page with one blurb of prose gets
 * its list.
 */
const LIST_PROSE_SHARE = 0.3;
/**
 * A pick with under about 120 words of prose loses to a list holding twice its weight, and to a list it opens: a
 * category page's intro above its products is read with them, so how many products the page holds (a page cut
 * short holds fewer) does not decide whether any are read. A blurb below other text in the list's container (a
 * short article under a categories menu) is not an intro and keeps the old rule.
 */
const SHORT_PROSE_WEIGHT = 600;
const SHORT_PROSE_SHARE = 0.5;
/** About one heading line: what may stand above an intro in its listing. */
const INTRO_LEAD_CHARS = 120;

/** Text `outer` holds before `inner`, counted as `stats` counts it (furniture gone, hidden parts skipped). */
function charsBefore(inner: Element, outer: Element, stats: ContentStats): number {
  let chars = 0;
  for (const previous of precedingWithin(inner, outer)) chars += stats.of(previous).chars;
  return chars;
}

function opensList(blurb: Element, list: Element, stats: ContentStats): boolean {
  return list !== blurb && list.contains(blurb) && charsBefore(blurb, list, stats) <= INTRO_LEAD_CHARS;
}

/** The walk's pick, and the measure it was picked by (later steps judge with the same numbers). */
function walkDown(
  root: Element,
  prose: ContentStats,
  settings: ScorerSettings,
): { element: Element; stats: ContentStats } {
  const byProse = descend(root, prose, settings.descendShare);
  const lists = new ContentStats(root, { linkWeight: LIST_LINK_WEIGHT });
  const byList = descend(root, lists, settings.descendShare);
  const proseWeight = prose.of(byProse).weight;
  const listWeight = lists.of(byList).weight;
  const short =
    proseWeight < SHORT_PROSE_WEIGHT &&
    (proseWeight < listWeight * SHORT_PROSE_SHARE || opensList(byProse, byList, prose));
  if (byList === byProse || (proseWeight >= listWeight * LIST_PROSE_SHARE && !short))
    return { element: byProse, stats: prose };
  return { element: byList, stats: lists };
}

/** The element holding the page's main content; `root` is <body> (or <html>). */
export function selectContent(root: Element, settings: ScorerSettings = DEFAULT_SETTINGS): Element {
  const before = new ContentStats(root);
  const page = {
    root: before.of(root).weight,
    comments: commentSectionsWeight(root, before),
    namedBody: namedBodyOf(root, before),
  };
  removeFurniture(root, before, page, settings, namesBody(root, before));
  removeDuplicateSiblings(root, before);
  const prose = new ContentStats(root);
  const named = namedContent(root, prose, settings.namedShare);
  const walked = named ? { element: named, stats: prose } : walkDown(root, prose, settings);
  const { stats } = walked;
  if (named || isUnnamed(walked.element)) rejoinStrayContinuation(walked.element, root, stats);
  const chosen = named ?? withLeadSiblings(walked.element, root, stats);
  trimTail(chosen, stats);
  removeLinkLists(chosen, stats, settings, stats.of(chosen).chars);
  return chosen;
}
