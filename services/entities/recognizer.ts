/**
 * The offline named-entity recognizer: tokenises a text into sentences, tags
 * them with the trained averaged perceptron (model/ner-model.json.gz) and
 * the gazetteer (model/gazetteer.json), makes the tags consistent across the
 * document and returns mentions with character offsets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PACKAGE_ROOT } from '../../core/paths.js';
import { Gazetteer, type GazetteerData } from './gazetteer.js';
import { Perceptron, type SerializedModel } from './perceptron.js';
import { tagDocument } from './sequence-tagger.js';
import { applyOrganisationRules, propagateWithinDocument, tagsToSpans, type SpanType, type TokenSpan } from './spans.js';
import { splitSentences, tokenize, type Token } from './tokenize.js';

export const MODEL_DIR = join(PACKAGE_ROOT, 'services', 'entities', 'model');
export const MODEL_FILE = 'ner-model.json.gz';
export const GAZETTEER_FILE = 'gazetteer.json';

export interface Mention {
  text: string;
  type: SpanType;
  /** Character offsets in the text. */
  start: number;
  end: number;
  /** Index of the sentence, and the token range inside it. */
  sentence: number;
  tokenStart: number;
  tokenEnd: number;
}

export interface RecognizedText {
  sentences: Token[][];
  mentions: Mention[];
}

export function loadGazetteer(dir = MODEL_DIR): Gazetteer {
  return new Gazetteer(JSON.parse(readFileSync(join(dir, GAZETTEER_FILE), 'utf8')) as GazetteerData);
}

export class EntityRecognizer {
  constructor(
    private readonly model: Perceptron,
    readonly gazetteer: Gazetteer,
  ) {}

  static load(dir = MODEL_DIR): EntityRecognizer {
    const model = JSON.parse(gunzipSync(readFileSync(join(dir, MODEL_FILE))).toString('utf8')) as SerializedModel;
    return new EntityRecognizer(Perceptron.load(model), loadGazetteer(dir));
  }

  /** Spans per sentence of one document given as words (what the bench scores). */
  tagWords(sentences: readonly (readonly string[])[]): TokenSpan[][] {
    const tags = tagDocument(this.model, this.gazetteer, sentences);
    const spans = tags.map((sentenceTags, s) => applyOrganisationRules(sentences[s]!, tagsToSpans(sentenceTags), (w) => this.gazetteer.isDesignator(w)));
    const consistent = spans.map((sentenceSpans, s) => sentenceSpans.map((span) => this.knownCompanyNotPlace(sentences[s]!, span)));
    return propagateWithinDocument(sentences, consistent, (lower) => this.gazetteer.isCommonWord(lower));
  }

  /** A one-word "location" that the lists know as a company and not as a place is a company ("of Microsoft"). */
  private knownCompanyNotPlace(words: readonly string[], span: TokenSpan): TokenSpan {
    if (span.type !== 'LOC' || span.end - span.start !== 1) return span;
    const word = words[span.start]!;
    return this.gazetteer.isCompanyWord(word) && !this.gazetteer.isPlace([word]) ? { ...span, type: 'ORG' } : span;
  }

  recognize(text: string): RecognizedText {
    const sentences = splitSentences(text, tokenize(text));
    return recognizedFromSpans(text, sentences, this.tagWords(sentences.map((tokens) => tokens.map((t) => t.text))));
  }
}

/** Mentions with character offsets from token spans per sentence (any tagger's: the perceptron's or a configured model's). */
export function recognizedFromSpans(text: string, sentences: Token[][], spans: readonly TokenSpan[][]): RecognizedText {
  const mentions: Mention[] = [];
  spans.forEach((sentenceSpans, s) => {
    const tokens = sentences[s]!;
    for (const span of sentenceSpans) {
      const start = tokens[span.start]!.start;
      const end = tokens[span.end - 1]!.end;
      mentions.push({ text: text.slice(start, end), type: span.type, start, end, sentence: s, tokenStart: span.start, tokenEnd: span.end });
    }
  });
  return { sentences, mentions };
}
