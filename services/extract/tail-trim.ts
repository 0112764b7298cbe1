/**
 * Cuts the tail of an article container at a heading that announces other
 * content ("More from …", "Top stories", "Related articles", "Leave a reply"):
 * sites put teaser lists of plain text (no links in the text itself) and
 * comment threads right after the body, in the same container, where link
 * density and furniture names cannot see them.
 */
import { isBodyParagraph } from './boilerplate.js';
import type { ContentStats } from './content-stats.js';
import { precedingWithin } from './document-order.js';

const CUE =
  /^(more (from|stories|news|articles|on|in|to read|like this)|(other|latest|top|popular|recent|trending|similar|related|recommended|featured|partner) (stories|news|articles|posts|reads|videos|content|coverage)|related|recommended( for you)?|our latest stories|read (more|next|also)|also read|you (may|might) (also )?like|most (popular|read|viewed|shared)|trending( now)?|partner news|what to read next|editor'?s picks|(\d+ )?comments?|leave a (reply|comment)|join the (conversation|discussion)|discussion)\b/i;
const CUE_MAX_CHARS = 48;
const BOLD = new Set(['strong', 'b']);
const squash = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();
const TITLE_NAME = /title|heading|header|head|label|hdr/i;
/** The cut must leave this share of the container's prose before it: a cue near the top is not a tail. */
const BODY_SHARE_BEFORE = 0.6;

function isCueHeading(element: Element): boolean {
  const tag = element.localName;
  // Other elements only when named as a title: an inline "Related: <link>" line inside the body is not a section
  // heading.
  const heading =
    /^h[2-6]$/.test(tag) ||
    (element.children.length <= 1 &&
      TITLE_NAME.test(`${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`)) ||
    (BOLD.has(tag) && squash(element.parentElement?.textContent) === squash(element.textContent));
  if (!heading) return false;
  const text = squash(element.textContent);
  return text.length > 0 && text.length <= CUE_MAX_CHARS && CUE.test(text);
}

/** Prose weight of everything in `container` that comes before `element` in document order. */
function weightBefore(element: Element, container: Element, stats: ContentStats): number {
  let weight = 0;
  for (const previous of precedingWithin(element, container)) weight += stats.of(previous).weight;
  return weight;
}

function bodyContinues(node: Element): boolean {
  for (let sibling = node.nextElementSibling; sibling; sibling = sibling.nextElementSibling)
    if (isBodyParagraph(sibling)) return true;
  return false;
}

export function trimTail(container: Element, stats: ContentStats): void {
  const total = stats.of(container).weight;
  if (total <= 0) return;
  const cue = Array.from(container.querySelectorAll('h2, h3, h4, h5, h6, div, span, p, header, strong, b')).find(
    (element) => isCueHeading(element) && weightBefore(element, container, stats) >= total * BODY_SHARE_BEFORE,
  );
  if (!cue) return;
  for (let node: Element | null = cue; node && node !== container; node = node.parentElement) {
    // Body paragraphs after the cue's box: the box was an aside inside the article, which goes on.
    if (node !== cue && bodyContinues(node)) break;
    while (node.nextElementSibling) node.nextElementSibling.remove();
  }
  cue.remove();
}
