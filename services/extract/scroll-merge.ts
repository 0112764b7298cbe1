/**
 * Virtualised lists replace their items while scrolling, so the final HTML
 * lacks what scrolled away; the browser pool returns a snapshot of the main
 * content after each step. This folds the snapshots back into one document:
 * every snapshot element (at most ITEM_CHARS of text) none of whose text is
 * already in the final page or an earlier snapshot is appended to <body>, in
 * order (containers mixing old and new items are split), so filters and strategies see each item once.
 * Runs in the extraction worker pool (task 'scroll-merge').
 */
import { parseDocument } from './parse-document.js';

const ITEM_CHARS = 2000;

function normal(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function knownTexts(root: Element, into: Set<string>): void {
  for (const element of Array.from(root.querySelectorAll('*'))) {
    const text = normal(element.textContent);
    if (text && text.length <= ITEM_CHARS) into.add(text);
  }
}

function newItems(element: Element, seen: Set<string>, out: string[]): void {
  for (const child of Array.from(element.children)) {
    const text = normal(child.textContent);
    if (!text || seen.has(text)) continue;
    // Whole when nothing inside is known yet; otherwise only its new parts (a list holding old and new items).
    const partlyKnown = Array.from(child.querySelectorAll('*')).some((el) => seen.has(normal(el.textContent)));
    if (text.length <= ITEM_CHARS && !partlyKnown) {
      seen.add(text);
      knownTexts(child, seen);
      out.push(child.outerHTML);
    } else {
      newItems(child, seen, out);
    }
  }
}

export function mergeScrollSnapshots(finalHtml: string, snapshots: string[]): string {
  if (snapshots.length === 0) return finalHtml;
  const document = parseDocument(finalHtml);
  const seen = new Set<string>();
  knownTexts(document.documentElement, seen);
  const added: string[] = [];
  for (const snapshot of snapshots) {
    if (typeof snapshot !== 'string') continue;
    newItems(parseDocument(snapshot).body ?? parseDocument(snapshot).documentElement, seen, added);
  }
  if (added.length === 0) return finalHtml;
  const section = document.createElement('section');
  section.setAttribute('data-quarry', 'scroll-collected');
  section.innerHTML = added.join('\n');
  (document.body ?? document.documentElement).appendChild(section);
  return document.documentElement.outerHTML;
}
