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
import { DEMONYM } from './classify.js';
import { clubsNamedAfterPlaces } from './clubs.js';
import { namesAfterKindsInDocument, placesByLastWord } from './definitions.js';
import type { SentenceContext } from './features.js';
import { Gazetteer, type GazetteerData, type WordClusterData } from './gazetteer.js';
import {
  buildingsInArticles,
  citiesOfPlaces,
  numberedUnits,
  organisationsByLastWord,
  placesJoinedByAnd,
} from './name-shapes.js';
import { Perceptron, type SerializedModel } from './perceptron.js';
import { quotedNicknames, surnamesArePeople, titlesLeftOut } from './persons.js';
import { tagDocumentContexts } from './sequence-tagger.js';
import { hasSpanTyper, retypeSpans } from './span-typer.js';
import {
  acronymsInParentheses,
  applyOrganisationRules,
  companiesByDesignator,
  propagateWithinDocument,
  splitCoordinations,
  splitPossessives,
  tagsToSpans,
  trimLowerCaseTail,
  trimPunctuation,
  type SpanType,
  type TokenSpan,
} from './spans.js';
import { teamsByNickname } from './teams.js';
import { splitSentences, tokenize, type Token } from './tokenize.js';

export const MODEL_DIR = join(PACKAGE_ROOT, 'services', 'entities', 'model');
export const MODEL_FILE = 'ner-model.json.gz';
export const GAZETTEER_FILE = 'gazetteer.json';
export const CLUSTERS_FILE = 'word-clusters.json.gz';

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
  const clusters = JSON.parse(gunzipSync(readFileSync(join(dir, CLUSTERS_FILE))).toString('utf8')) as WordClusterData;
  return new Gazetteer(JSON.parse(readFileSync(join(dir, GAZETTEER_FILE), 'utf8')) as GazetteerData, clusters);
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
    const { contexts, spans: tagged } = taggerSpans(this.model, this.gazetteer, sentences);
    const typed = clubsNamedAfterPlaces(
      sentences,
      hasSpanTyper(this.model) ? retypeSpans(this.model, contexts, tagged, this.gazetteer) : tagged,
    );
    const introduced = namesAfterKindsInDocument(sentences, typed).map((sentenceSpans, s) =>
      placesByLastWord(sentences[s]!, sentenceSpans),
    );
    const isDesignator = (word: string) => this.gazetteer.isDesignator(word);
    const organised = introduced.map((sentenceSpans, s) =>
      acronymsInParentheses(
        sentences[s]!,
        applyOrganisationRules(sentences[s]!, splitPossessives(sentences[s]!, sentenceSpans), isDesignator, (w) =>
          this.gazetteer.isOrgKeyword(w),
        ),
      ),
    );
    const spans = companiesByDesignator(sentences, organised, isDesignator);
    const alone = new Set(
      spans.flatMap((sentenceSpans, s) =>
        sentenceSpans.map((span) => sentences[s]!.slice(span.start, span.end).join(' ')),
      ),
    );
    const isName = (part: readonly string[]) =>
      alone.has(part.join(' ')) ||
      (part.length === 1 && (this.gazetteer.isCompanyWord(part[0]!) || this.gazetteer.isPlace(part)));
    const recurring = this.recurringCompanyWords(sentences);
    const split = spans.map((sentenceSpans, s) =>
      this.companiesAfterPrepositions(
        sentences[s]!,
        splitCoordinations(sentences[s]!, sentenceSpans, isName),
        recurring,
      ),
    );
    const consistent = split.map((sentenceSpans, s) =>
      sentenceSpans.map((span) =>
        this.knownPlaceNotCompany(sentences[s]!, this.knownCompanyNotPlace(sentences[s]!, span)),
      ),
    );
    return propagateWithinDocument(sentences, this.namesByShape(sentences, consistent), (lower) =>
      this.gazetteer.isCommonWord(lower),
    );
  }

  /**
   * The rules that a name's shape and its other mentions settle (teams.ts, name-shapes.ts, persons.ts), in this order.
   */
  private namesByShape(sentences: readonly (readonly string[])[], spans: TokenSpan[][]): TokenSpan[][] {
    const isOrgKeyword = (word: string) => this.gazetteer.isOrgKeyword(word);
    const teams = teamsByNickname(sentences, spans, (words) => this.gazetteer.isPlace(words));
    const joined = placesJoinedByAnd(
      sentences,
      numberedUnits(sentences, buildingsInArticles(sentences, teams)),
      isOrgKeyword,
    );
    const people = surnamesArePeople(sentences, joined);
    const organisations = organisationsByLastWord(
      sentences,
      citiesOfPlaces(sentences, people),
      (word) => isOrgKeyword(word) || this.gazetteer.isDesignator(word),
    );
    return quotedNicknames(sentences, titlesLeftOut(sentences, organisations));
  }

  /**
   * A one-word "location" or "misc" name that the lists know as a company and
   * not as a place is a company ("of Microsoft"); a nationality ("American")
   * stays what it was.
   */
  private knownCompanyNotPlace(words: readonly string[], span: TokenSpan): TokenSpan {
    if ((span.type !== 'LOC' && span.type !== 'MISC') || span.end - span.start !== 1) return span;
    const word = words[span.start]!;
    if (span.type === 'MISC' && DEMONYM.test(word)) return span;
    return this.gazetteer.isCompanyWord(word) && !this.gazetteer.isPlace([word]) ? { ...span, type: 'ORG' } : span;
  }

  /**
   * A capitalised word the tagger left out right after "of", "at", "for",
   * "with" or "by", or recurring in the text, that the lists know as a company
   * and not as a place or nationality, standing alone, is a company ("chief
   * executive of Microsoft,"; "Salesforce founder … Salesforce is based in").
   */
  /** Company-list words (not common words) the text names capitalised at least twice and never in lower case. */
  private recurringCompanyWords(sentences: readonly (readonly string[])[]): Set<string> {
    const counts = new Map<string, number>();
    const lower = new Set(sentences.flat().filter((w) => /^\p{Ll}/u.test(w)));
    for (const word of sentences.flat()) if (/^\p{Lu}\p{Ll}/u.test(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    const known = (word: string) =>
      this.gazetteer.isCompanyWord(word) &&
      !this.gazetteer.isCommonWord(word.toLowerCase()) &&
      !lower.has(word.toLowerCase());
    return new Set([...counts].filter(([word, n]) => n >= 2 && known(word)).map(([word]) => word));
  }

  private companiesAfterPrepositions(
    words: readonly string[],
    spans: TokenSpan[],
    recurring: ReadonlySet<string>,
  ): TokenSpan[] {
    const covered = (i: number) => spans.some((span) => i >= span.start && i < span.end);
    const capitalised = (i: number) => /^\p{Lu}/u.test(words[i] ?? '');
    const added: TokenSpan[] = [];
    words.forEach((word, i) => {
      if (
        !(recurring.has(word) || /^(?:of|at|for|with|by)$/.test(words[i - 1] ?? '')) ||
        covered(i) ||
        !capitalised(i) ||
        capitalised(i + 1)
      )
        return;
      if (this.gazetteer.isCompanyWord(word) && !this.gazetteer.isPlace([word]) && !DEMONYM.test(word))
        added.push({ type: 'ORG', start: i, end: i + 1 });
    });
    return added.length === 0 ? spans : [...spans, ...added].sort((a, b) => a.start - b.start);
  }

  /**
   * A one-word "organisation" right after "in" that the lists know as a place and not as a company is a place ("Apple
   * in Cupertino").
   */
  private knownPlaceNotCompany(words: readonly string[], span: TokenSpan): TokenSpan {
    if (span.type !== 'ORG' || span.end - span.start !== 1 || !/^(?:in|near)$/i.test(words[span.start - 1] ?? ''))
      return span;
    const word = words[span.start]!;
    return this.gazetteer.isPlace([word]) && !this.gazetteer.isCompanyWord(word) ? { ...span, type: 'LOC' } : span;
  }

  recognize(text: string): RecognizedText {
    const sentences = splitSentences(text, tokenize(text));
    return recognizedFromSpans(text, sentences, this.tagWords(sentences.map((tokens) => tokens.map((t) => t.text))));
  }
}

/**
 * The tagger's spans of one document, trimmed of punctuation and run-on lower-case words: what the span typer retypes
 * (and, out of fold, learns from).
 */
export function taggerSpans(
  model: Perceptron,
  gazetteer: Gazetteer,
  sentences: readonly (readonly string[])[],
): { contexts: SentenceContext[]; spans: TokenSpan[][] } {
  const { contexts, tags } = tagDocumentContexts(model, gazetteer, sentences);
  return {
    contexts,
    spans: tags.map((sentenceTags, s) =>
      trimLowerCaseTail(sentences[s]!, trimPunctuation(sentences[s]!, tagsToSpans(sentenceTags))),
    ),
  };
}

/**
 * Mentions with character offsets from token spans per sentence (any tagger's: the perceptron's or a configured
 * model's).
 */
export function recognizedFromSpans(text: string, sentences: Token[][], spans: readonly TokenSpan[][]): RecognizedText {
  const mentions: Mention[] = [];
  spans.forEach((sentenceSpans, s) => {
    const tokens = sentences[s]!;
    for (const span of sentenceSpans) {
      const start = tokens[span.start]!.start;
      const end = tokens[span.end - 1]!.end;
      mentions.push({
        text: text.slice(start, end),
        type: span.type,
        start,
        end,
        sentence: s,
        tokenStart: span.start,
        tokenEnd: span.end,
      });
    }
  });
  return { sentences, mentions };
}
