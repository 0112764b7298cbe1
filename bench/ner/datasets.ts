/**
 * The annotated sets the NER bench scores and the training script learns
 * from, read into one form: documents of sentences of words with BIO tags.
 *
 * - WNUT-17 (CC-BY-4.0): dev split (copied here, training) and annotated
 *   test split (read from ../shared/fixtures, scoring); person → PER,
 *   location → LOC, corporation and group → ORG, product and creative-work →
 *   MISC. Each tweet is a document.
 * - wikigold (CC-BY-4.0): the start of RoSTER's training split (122 sentences,
 *   training) and its test split (274 sentences, scoring), copied here;
 *   consecutive sentences grouped 8 to a document.
 * - Hand-annotated news (this repository): entity strings per document,
 *   marked on the text's own tokens (longest string first, MISC excluded
 *   from scoring): WCXB pages (text copied here, training) and Zyte
 *   benchmark articles (text read from ../shared/fixtures, scoring).
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

const wikigold = () => readConll(join(DATA_DIR, 'wikigold', 'wikigold.conll.txt'));
/** Which wikigold articles are held out from training: every fourth (bench/ner/data/wikigold/PROVENANCE.md). */
const heldOut = (_: Document, index: number) => index % 4 === 3;

/** wikigold articles the shipped model trains on. */
export function wikigoldTrain(): Document[] {
  return wikigold().filter((doc, i) => !heldOut(doc, i));
}

/** wikigold articles held out from training: what the bench and the model test measure. */
export function wikigoldHeldOut(): Document[] {
  return wikigold().filter(heldOut);
}

const WNUT = join(SHARED_FIXTURES, 'datasets', 'ner', 'wnut17');
const BTC = join(SHARED_FIXTURES, 'datasets', 'ner', 'btc');
/** BTC sections; H is the held-out test section (as in Derczynski et al. 2016). */
const BTC_TRAIN = ['a', 'b', 'e', 'f', 'g'];
/** A tweet per document: BTC has no document boundaries. */
const tweets = (documents: Document[]) => documents.flatMap((doc) => doc.map((sentence) => [sentence]));

/** The tweets of the named BTC sections (lower-case letters), null when the shared fixtures are absent. */
export function btcSections(sections: readonly string[]): Document[] | null {
  return existsSync(BTC) ? sections.flatMap((section) => tweets(readConll(join(BTC, `${section}.conll`)))) : null;
}

export function btcTrain(): Document[] | null {
  return btcSections(BTC_TRAIN);
}

export function btcTest(): Document[] | null {
  return btcSections(['h']);
}

export function wnutDev(): Document[] | null {
  const path = join(WNUT, 'emerging.dev.conll');
  return existsSync(path) ? readWnut(path) : null;
}

export function wnutTest(): Document[] | null {
  const path = join(WNUT, 'emerging.test.annotated');
  return existsSync(path) ? readWnut(path) : null;
}
