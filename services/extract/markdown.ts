/**
 * Markdown of the main content: ATX headings, fenced code, GFM tables, and
 * links as numbered references ([text][1]) listed at the end, so the prose
 * stays readable and each URL appears once.
 */
import TurndownService from 'turndown';
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

  render(): string {
    return [...this.numbers].map(([url, number]) => `[${number}]: ${url.replace(/ /g, '%20')}`).join('\n');
  }
}

function escapeAlt(alt: string): string {
  return alt.replace(/\s+/g, ' ').replace(/([[\]\\])/g, '\\$1').trim();
}

function createService(base: URL | null, pageUrl: URL | null, references: References): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
  });
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'button', 'input', 'select', 'textarea', 'form'] as TurndownService.TagName[]);
  service.addRule('referenceLink', {
    filter: (node) => node.nodeName === 'A' && node.hasAttribute('href'),
    replacement: (content, node) => {
      const href = node.getAttribute('href') ?? '';
      const text = content.trim();
      const url = isInPageAnchor(href, pageUrl, base) ? null : absoluteWebUrl(href, base);
      if (!url || !text) return text;
      return `[${text}][${references.numberOf(url)}]`;
    },
  });
  service.addRule('absoluteImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = imageSource(node, base);
      return src ? `![${escapeAlt(node.getAttribute('alt') ?? '')}](${src.replace(/ /g, '%20')})` : '';
    },
  });
  service.addRule('preWithoutCode', {
    filter: (node) => node.nodeName === 'PRE' && node.querySelector('code') === null,
    replacement: (_content, node) => {
      const code = (node.textContent ?? '').replace(/^\n+|\s+$/g, '');
      const fence = code.includes('```') ? '~~~' : '```';
      return `\n\n${fence}\n${code}\n${fence}\n\n`;
    },
  });
  addTableRules(service);
  return service;
}

export function toMarkdown(root: Element, base: URL | null, pageUrl: URL | null): string {
  const references = new References();
  const body = createService(base, pageUrl, references)
    .turndown(root as unknown as HTMLElement)
    .trim();
  const list = references.render();
  return list ? `${body}\n\n${list}` : body;
}
