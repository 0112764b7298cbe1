/**
 * Article facts from JSON-LD: the best Article-like node (NewsArticle,
 * BlogPosting, …, then WebPage as a last resort), looked up through @graph
 * arrays and @id references (Yoast-style graphs name the author by @id).
 * JSON-LD is often written with HTML entities left in (&amp;, &#8217;): its
 * strings go through the one decoder.
 */
import { decodeEntities } from '../../core/entities.js';

export interface JsonLdArticle {
  headline: string | null;
  description: string | null;
  authors: string[];
  datePublished: string | null;
  keywords: string[];
  publisherName: string | null;
  language: string | null;
}

type JsonObject = Record<string, unknown>;

const ARTICLE_TYPES =
  /^(Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|TechArticle|AnalysisNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|BackgroundNewsArticle|LiveBlogPosting|SocialMediaPosting|DiscussionForumPosting|Review|Recipe|HowTo|CreativeWork|MedicalWebPage)$/i;
const PAGE_TYPES = /^(WebPage|ItemPage|AboutPage|CollectionPage|QAPage|ProfilePage|FAQPage)$/i;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(node: JsonObject): string[] {
  return ([] as unknown[])
    .concat(node['@type'] ?? [])
    .map((type) => String(type).replace(/^https?:\/\/schema\.org\//, ''));
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return decodeEntities(value).trim() || null;
  if (Array.isArray(value)) return text(value[0]);
  return null;
}

function collectNodes(value: unknown, into: JsonObject[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectNodes(item, into);
    return;
  }
  if (!isObject(value)) return;
  into.push(value);
  if (value['@graph']) collectNodes(value['@graph'], into);
}

function parseScripts(doc: Document): JsonObject[] {
  const nodes: JsonObject[] = [];
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    const source = (script.textContent ?? '').trim();
    if (!source) continue;
    try {
      collectNodes(JSON.parse(source), nodes);
    } catch {
      // Broken JSON-LD is common (trailing commas, raw newlines); the meta tags still apply.
    }
  }
  return nodes;
}

function namesOf(value: unknown, byId: Map<string, JsonObject>): string[] {
  return ([] as unknown[])
    .concat(value ?? [])
    .map((item) => {
      if (typeof item === 'string') return decodeEntities(item).trim();
      if (!isObject(item)) return '';
      const resolved = !item.name && typeof item['@id'] === 'string' ? (byId.get(item['@id']) ?? item) : item;
      return text(resolved.name) ?? '';
    })
    .filter((name) => name && !/^https?:\/\//.test(name));
}

function keywordsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  return list
    .flatMap((item) => item.split(','))
    .map((keyword) => decodeEntities(keyword).trim())
    .filter(Boolean);
}

/** Every schema.org @type named in the page's JSON-LD (parsed as readJsonLdArticle parses it). */
export function jsonLdTypes(doc: Document): Set<string> {
  return new Set(parseScripts(doc).flatMap(typesOf));
}

export function readJsonLdArticle(doc: Document): JsonLdArticle | null {
  const nodes = parseScripts(doc);
  const byId = new Map<string, JsonObject>();
  for (const node of nodes) if (typeof node['@id'] === 'string') byId.set(node['@id'], node);
  const article =
    nodes.find((node) => typesOf(node).some((type) => ARTICLE_TYPES.test(type))) ??
    nodes.find((node) => typesOf(node).some((type) => PAGE_TYPES.test(type)));
  if (!article) return null;
  const publisher = isObject(article.publisher) ? article.publisher : null;
  const publisherNode =
    publisher && typeof publisher['@id'] === 'string' && !publisher.name ? byId.get(publisher['@id']) : publisher;
  return {
    headline: text(article.headline) ?? text(article.name),
    description: text(article.description),
    authors: [...new Set(namesOf(article.author ?? article.creator, byId))],
    datePublished: text(article.datePublished) ?? text(article.dateCreated) ?? text(article.uploadDate),
    keywords: keywordsOf(article.keywords),
    publisherName: text(publisherNode?.name),
    language: text(article.inLanguage),
  };
}
