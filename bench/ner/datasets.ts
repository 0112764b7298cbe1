/**
 * The annotated sets the NER bench scores and the training script learns
 * from, read into one form: documents of sentences of words with BIO tags.
 *
 * - The pool (`nerPool`): wikigold (CC-BY-4.0, 145 Wikipedia articles, copied
 *   here; IOB1 read as BIO), the Broad Twitter Corpus (CC-BY-4.0, sections A,
 *   B, E, F, G, H; a tweet per document) and WNUT-17 dev and annotated test
 *   (CC-BY-4.0; person → PER, location → LOC, corporation and group → ORG,
 *   product and creative-work → MISC; a post per document), the last two read
 *   from ../shared/fixtures. The protocol deals it into CV folds and a final
 *   fold (bench/ner/cv.ts); the shipped model trains on the CV folds only.
 * - Hand-annotated news (this repository): entity strings per document,
 *   marked on the text's own tokens (longest string first, MISC excluded
 *   from scoring): WCXB pages (text copied here, always training) and Zyte
 *   benchmark articles (text read from ../shared/fixtures, never training).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tag } from '../../services/entities/perceptron.js';
import type { LabelledSentence } from '../../services/entities/sequence-tagger.js';
import { spansToTags, type SpanType, type TokenSpan } from '../../services/entities/spans.js';
import { splitSentences, tokenize } from '../../services/entities/tokenize.js';

/** bench/ner/data in the source tree (also when running from dist/). */
export const DATA_DIR = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return join(dir, 'bench', 'ner', 'data');
})();
/**
 * The shared fixtures: QUARRY_SHARED_FIXTURES, else the nearest `shared/fixtures` above the checkout (clones and
 * worktrees sit at different depths).
 */
export const SHARED_FIXTURES =
  process.env.QUARRY_SHARED_FIXTURES ??
  (() => {
    for (let dir = DATA_DIR; dirname(dir) !== dir; dir = dirname(dir))
      if (existsSync(join(dir, 'shared', 'fixtures'))) return join(dir, 'shared', 'fixtures');
    return join(DATA_DIR, '..', '..', '..', '..', 'shared', 'fixtures');
  })();

export type Document = LabelledSentence[];

const WNUT_TYPES: Record<string, SpanType> = {
  person: 'PER',
  location: 'LOC',
  corporation: 'ORG',
  group: 'ORG',
  product: 'MISC',
  'creative-work': 'MISC',
};

export function readWnut(path: string): Document[] {
  const documents: Document[] = [];
  let words: string[] = [];
  let tags: Tag[] = [];
  const flush = () => {
    if (words.length > 0) documents.push([{ words, tags }]);
    words = [];
    tags = [];
  };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [word, label] = line.split('\t');
    if (!word || !label) {
      flush();
      continue;
    }
    const type = label === 'O' ? null : WNUT_TYPES[label.slice(2)];
    words.push(word);
    tags.push(type ? (`${label.slice(0, 1)}-${type}` as Tag) : 'O');
  }
  flush();
  return documents;
}

/**
 * A CoNLL file (token and tag per line, tab or space; blank line between
 * sentences; "-DOCSTART-" between documents). IOB1 (wikigold: I- opens a
 * span unless it continues one of the same type) is read into BIO.
 */
export function readConll(
  path: string,
  mapType: (label: string) => SpanType | null = (label) => label as SpanType,
): Document[] {
  const documents: Document[] = [[]];
  let words: string[] = [];
  let tags: Tag[] = [];
  const flush = () => {
    if (words.length > 0) documents[documents.length - 1]!.push({ words, tags });
    words = [];
    tags = [];
  };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [word, label] = line.trim().split(/[\t ]+/);
    if (!word || !label) {
      flush();
      continue;
    }
    if (word === '-DOCSTART-') {
      flush();
      if (documents[documents.length - 1]!.length > 0) documents.push([]);
      continue;
    }
    const type = label === 'O' ? null : mapType(label.slice(2));
    const previous = tags[tags.length - 1];
    const continues = previous !== undefined && previous !== 'O' && previous.slice(2) === type;
    tags.push(type ? (`${label.startsWith('B-') || !continues ? 'B' : 'I'}-${type}` as Tag) : 'O');
    words.push(word);
  }
  flush();
  return documents.filter((d) => d.length > 0);
}

export interface AnnotatedDoc {
  id: string;
  PER: string[];
  ORG: string[];
  LOC: string[];
  MISC: string[];
}

/** Marks every occurrence of the annotated strings on the text's tokens, longest first. */
export function annotateText(text: string, doc: AnnotatedDoc): Document {
  const sentences = splitSentences(text, tokenize(text));
  const entries = (['PER', 'ORG', 'LOC', 'MISC'] as const)
    .flatMap((type) => doc[type].map((surface) => ({ type, words: tokenize(surface).map((t) => t.text) })))
    .sort((a, b) => b.words.length - a.words.length);
  return sentences.map((tokens) => {
    const words = tokens.map((t) => t.text);
    const taken = new Array<boolean>(words.length).fill(false);
    const spans: TokenSpan[] = [];
    for (const entry of entries) {
      for (let i = 0; i + entry.words.length <= words.length; i++) {
        const range = words.slice(i, i + entry.words.length);
        if (range.join('\u0000') !== entry.words.join('\u0000') || taken.slice(i, i + range.length).some(Boolean))
          continue;
        spans.push({ type: entry.type, start: i, end: i + range.length });
        for (let j = i; j < i + range.length; j++) taken[j] = true;
      }
    }
    return { words, tags: spansToTags(words.length, spans) };
  });
}

export function wcxbTrainingDocuments(): Document[] {
  const annotations = JSON.parse(readFileSync(join(DATA_DIR, 'news', 'wcxb-news-train.annotations.json'), 'utf8')) as {
    docs: AnnotatedDoc[];
  };
  const texts = JSON.parse(readFileSync(join(DATA_DIR, 'news', 'wcxb-news-train.texts.json'), 'utf8')) as {
    docs: Array<{ id: string; text: string }>;
  };
  return annotations.docs.map((doc) => {
    const text = texts.docs.find((t) => t.id === doc.id)?.text;
    if (text === undefined) throw new Error(`no text for WCXB page ${doc.id}`);
    return annotateText(text, doc);
  });
}

/** The opening of a Zyte benchmark article, cut as the annotations were made. */
export function zyteOpening(body: string): string {
  const text = body.trim();
  const cut = text.slice(0, 1200);
  const stop = cut.lastIndexOf('. ');
  return stop > 600 ? cut.slice(0, stop + 1) : cut;
}

interface ZyteSet {
  texts: string[];
  documents: Document[];
}

function zyteSet(annotationFile: string): ZyteSet | null {
  const truth = join(SHARED_FIXTURES, 'extraction', 'zyte-truth', 'ground-truth.json');
  if (!existsSync(truth)) return null;
  const bodies = JSON.parse(readFileSync(truth, 'utf8')) as Record<string, { articleBody: string }>;
  const annotations = JSON.parse(readFileSync(join(DATA_DIR, 'news', annotationFile), 'utf8')) as {
    docs: AnnotatedDoc[];
  };
  const texts: string[] = [];
  const documents = annotations.docs.map((doc) => {
    const key = Object.keys(bodies).find((k) => k.startsWith(doc.id));
    if (!key) throw new Error(`no Zyte article ${doc.id}`);
    const text = zyteOpening(bodies[key]!.articleBody);
    texts.push(text);
    return annotateText(text, doc);
  });
  return { texts, documents };
}

/** Every hand-annotated Zyte article (none trains the shipped model: the article text is its publishers'). */
export function zyteNews(): ZyteSet | null {
  const train = zyteSet('zyte-news-train.annotations.json');
  const test = zyteSet('zyte-news-test.annotations.json');
  return train && test
    ? { texts: [...train.texts, ...test.texts], documents: [...train.documents, ...test.documents] }
    : null;
}

/** One document of the NER pool with the id its fold is drawn from ("wikigold:12", "btc:h:40", "wnut:test:7"). */
export interface NerDocument {
  id: string;
  document: Document;
}

const WNUT = join(SHARED_FIXTURES, 'datasets', 'ner', 'wnut17');
const BTC = join(SHARED_FIXTURES, 'datasets', 'ner', 'btc');
const BTC_SECTIONS = ['a', 'b', 'e', 'f', 'g', 'h'];
const WNUT_SPLITS = [
  ['dev', 'emerging.dev.conll'],
  ['test', 'emerging.test.annotated'],
] as const;
/** A tweet per document: BTC has no document boundaries. */
const tweets = (documents: Document[]) => documents.flatMap((doc) => doc.map((sentence) => [sentence]));

/** Every wikigold article (145), from the copy in bench/ner/data. */
export function wikigoldArticles(): Document[] {
  return readConll(join(DATA_DIR, 'wikigold', 'wikigold.conll.txt'));
}

/**
 * The NER pool the protocol deals into folds: all of wikigold, all six BTC sections and both annotated WNUT-17
 * splits, each document under a stable id. Null when the shared fixtures (BTC, WNUT) are absent.
 */
export function nerPool(): NerDocument[] | null {
  if (!existsSync(BTC) || !existsSync(WNUT)) return null;
  const wikigold = wikigoldArticles().map((document, i) => ({ id: `wikigold:${i}`, document }));
  const btc = BTC_SECTIONS.flatMap((section) =>
    tweets(readConll(join(BTC, `${section}.conll`))).map((document, i) => ({ id: `btc:${section}:${i}`, document })),
  );
  const wnut = WNUT_SPLITS.flatMap(([split, file]) =>
    readWnut(join(WNUT, file)).map((document, i) => ({ id: `wnut:${split}:${i}`, document })),
  );
  return [...wikigold, ...btc, ...wnut];
}

/** The set a pool document is from ("wikigold", "btc", "wnut"). */
export const setOf = (doc: NerDocument): string => doc.id.slice(0, doc.id.indexOf(':'));
