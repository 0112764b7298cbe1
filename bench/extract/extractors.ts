/**
 * The two extractors compared: Quarry's extract() as the service runs it
 * (default options: markdown, images and links included), and plain linkedom
 * + Mozilla Readability (parse, Readability.parse(), textContent).
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { extract } from '../../services/extract/extract.js';

export type Extractor = (html: string, url: string) => string;

export const quarry: Extractor = (html, url) => extract(html, url).text;

export const readability: Extractor = (html) => {
  try {
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as Document).parse();
    return article?.textContent ?? '';
  } catch {
    return '';
  }
};

export const EXTRACTORS: Array<{ name: string; run: Extractor }> = [
  { name: 'quarry', run: quarry },
  { name: 'readability', run: readability },
];
