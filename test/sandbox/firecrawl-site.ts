/**
 * A small documentation site for the Firecrawl tests and bench:crawl: an index
 * linking every page, each page an article with a title, a description, og
 * tags, an image, and links to its neighbours (so a crawl finds the site by
 * following links), under /fc/. `/fc/private/…` pages are linked too, for a
 * robots.txt that disallows them.
 */
import type { SandboxWeb } from './sandbox-web.js';

const TOPICS = [
  'granite',
  'basalt',
  'marble',
  'slate',
  'quartzite',
  'limestone',
  'sandstone',
  'gneiss',
  'schist',
  'obsidian',
];

export function sitePagePath(index: number): string {
  return `/fc/page-${index}`;
}

export function privatePagePath(index: number): string {
  return `/fc/private/page-${index}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The article at sitePagePath(index); links to the next pages and to `extraLinks`. */
export function siteArticle(index: number, linksTo: string[]): string {
  const topic = TOPICS[index % TOPICS.length]!;
  const title = `Quarry stone ${index}: ${topic}`;
  const paragraphs = [
    `Page ${index} describes how ${topic} is cut from the quarry face, graded by hand, and shipped to masons who shape it for walls, floors and steps.`,
    `Workers split ${topic} blocks along natural beds with wedges and feathers; the blocks are then sawn with diamond wire into slabs of even thickness.`,
    `Each slab of ${topic} is inspected for cracks and colour, stamped with its bed number, and stacked on timber bearers so that air can reach every face.`,
  ];
  const links = linksTo.map((href) => `<li><a href="${escapeHtml(href)}">Read ${escapeHtml(href)}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="description" content="How ${topic} is quarried, page ${index}.">
<meta name="keywords" content="${topic}, quarry, stone">
<meta property="og:title" content="${escapeHtml(title)}"><meta property="og:description" content="The ${topic} page.">
<meta property="og:site_name" content="Quarry stones"></head>
<body><header><nav><a href="/fc/">Home</a></nav></header>
<main><article><h1>${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
<figure><img src="/fc/img/${index}.png" alt="A block of ${topic}"><figcaption>A block of ${topic}.</figcaption></figure>
<ul>${links}</ul></article></main><footer>Quarry stones site</footer></body></html>`;
}

export interface SiteOptions {
  pages: number;
  /** Pages under /fc/private/ linked from page 0 (for robots.txt tests). */
  privatePages?: number;
}

/** Adds the site to the sandbox web; answers the index URL. Page i links to i+1 and i+2; the index links to page 0. */
export function addFirecrawlSite(web: SandboxWeb, options: SiteOptions): string {
  const { pages, privatePages = 0 } = options;
  for (let i = 0; i < pages; i++) {
    const next = [i + 1, i + 2].filter((n) => n < pages).map(sitePagePath);
    const extra = i === 0 ? Array.from({ length: privatePages }, (_, p) => privatePagePath(p)) : [];
    web.addPage(sitePagePath(i), siteArticle(i, [...next, ...extra]), { contentType: 'text/html; charset=utf-8' });
  }
  for (let p = 0; p < privatePages; p++)
    web.addPage(privatePagePath(p), siteArticle(1000 + p, []), { contentType: 'text/html; charset=utf-8' });
  return web.addPage('/fc/', siteArticle(9999, [sitePagePath(0)]), { contentType: 'text/html; charset=utf-8' });
}
