/**
 * Markdown of the main content: ATX headings, fenced code, GFM tables, and
 * links as numbered references ([text][1]) listed at the end, so the prose
 * stays readable and each URL appears once.
 */
import TurndownService from 'turndown';
import {
  escapeMarkdownText,
  fencedCode,
  linkableUrl,
  markdownImage,
  referenceDefinition,
  type LinkPolicy,
} from '../markdown/escape.js';
import { absoluteWebUrl, imageSource, isInPageAnchor } from './content-urls.js';
import { addTableRules } from './markdown-tables.js';

class References {
  private readonly numbers = new Map<string, number>();

  numberOf(url: string): number {
    let number = this.numbers.get(url);
    if (number === undefined) {
      number = this.numbers.size + 1;
      this.numbers.set(url, number);
    }
    return number;
  }

  render(policy: LinkPolicy): string {
    return [...this.numbers]
      .flatMap(([url, number]) => referenceDefinition(String(number), url, policy) ?? [])
      .join('\n');
  }
}

function createService(
  base: URL | null,
  pageUrl: URL | null,
  references: References,
  policy: LinkPolicy,
): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
  });
  // Page text is text: no raw HTML, no markdown made of the page's own characters (services/markdown/escape.ts).
  service.escape = escapeMarkdownText;
  service.remove([
    'script',
    'style',
    'noscript',
    'template',
    'iframe',
    'button',
    'input',
    'select',
    'textarea',
    'form',
  ] as TurndownService.TagName[]);
  service.addRule('referenceLink', {
    filter: (node) => node.nodeName === 'A' && node.hasAttribute('href'),
    replacement: (content, node) => {
      const href = node.getAttribute('href') ?? '';
      const text = content.trim();
      const url = isInPageAnchor(href, pageUrl, base) ? null : absoluteWebUrl(href, base);
      // javascript:, data: and refused addresses keep their text and lose the link.
      if (!url || !text || !linkableUrl(url, policy)) return text;
      return `[${text}][${references.numberOf(url)}]`;
    },
  });
  service.addRule('absoluteImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = imageSource(node, base);
      return src ? markdownImage(node.getAttribute('alt') ?? '', src, policy) : '';
    },
  });
  service.addRule('preWithoutCode', {
    filter: (node) => node.nodeName === 'PRE' && node.querySelector('code') === null,
    replacement: (_content, node) => {
      const code = (node.textContent ?? '').replace(/^\n+|\s+$/g, '');
      return `\n\n${fencedCode(code)}\n\n`;
    },
  });
  addTableRules(service);
  return service;
}

export function toMarkdown(root: Element, base: URL | null, pageUrl: URL | null, policy: LinkPolicy): string {
  const references = new References();
  const body = createService(base, pageUrl, references, policy)
    .turndown(root as unknown as HTMLElement)
    .trim();
  const list = references.render(policy);
  return list ? `${body}\n\n${list}` : body;
}
