/**
 * The tagger's name lists (model/gazetteer.json, built by
 * scripts/build-ner-gazetteer.mjs) and the per-token marks they give:
 * first name, surname, place (longest multi-word match, B/I), organisation
 * designator or keyword, person title, common lower-case word, and the
 * word's cluster (model/word-clusters.json.gz, scripts/build-ner-clusters.mjs).
 */
import { tokenize } from './tokenize.js';

export interface GazetteerData {
  firstNames: string[];
  surnames: string[];
  places: string[];
  personNameWords: string[];
  companyWords: string[];
  orgDesignators: string[];
  orgKeywords: string[];
  personTitles: string[];
  commonWords: string[];
}

export interface TokenMarks {
  firstName: boolean;
  surname: boolean;
  /** A word of a person's name (first or last) in a larger list. */
  nameWord: boolean;
  /** A word seen in company names. */
  companyWord: boolean;
  /** Position in the longest place-name match: B(egin), I(nside) or null. */
  place: 'B' | 'I' | null;
  designator: boolean;
  orgKeyword: boolean;
  /** The token is (the last word of) a person title. */
  title: boolean;
  /** The lower-case form is a common word in running text. */
  common: boolean;
  /** Word cluster of the lower-case form ("coarse/fine"), null for words outside the clustered vocabulary. */
  cluster: WordCluster | null;
}

export interface WordCluster {
  coarse: number;
  fine: number;
}

/** model/word-clusters.json.gz as written by scripts/build-ner-clusters.mjs: cluster index = coarse · fine + sub. */
export interface WordClusterData {
  coarse: number;
  fine: number;
  /** Space-separated lower-case words of each cluster. */
  clusters: string[];
}

interface TrieNode {
  next: Map<string, TrieNode>;
  end: boolean;
}

function newNode(): TrieNode {
  return { next: new Map(), end: false };
}

function buildTrie(phrases: string[]): TrieNode {
  const root = newNode();
  for (const phrase of phrases) {
    let node = root;
    for (const token of tokenize(phrase)) {
      let child = node.next.get(token.text);
      if (!child) {
        child = newNode();
        node.next.set(token.text, child);
      }
      node = child;
    }
    if (node !== root) node.end = true;
  }
  return root;
}

/** Length of the longest phrase of the trie starting at words[i] (0 when none). */
function longestMatch(trie: TrieNode, words: readonly string[], i: number): number {
  let node = trie;
  let best = 0;
  for (let j = i; j < words.length; j++) {
    const child = node.next.get(words[j]!);
    if (!child) break;
    node = child;
    if (node.end) best = j - i + 1;
  }
  return best;
}

export class Gazetteer {
  private readonly firstNames: Set<string>;
  private readonly surnames: Set<string>;
  private readonly nameWords: Set<string>;
  private readonly companyWords: Set<string>;
  private readonly designators: Set<string>;
  private readonly orgKeywords: Set<string>;
  private readonly common: Set<string>;
  private readonly places: TrieNode;
  private readonly titles: TrieNode;
  private readonly clusters = new Map<string, WordCluster>();

  constructor(data: GazetteerData, clusters?: WordClusterData) {
    clusters?.clusters.forEach((words, index) => {
      const cluster = { coarse: Math.floor(index / clusters.fine), fine: index };
      for (const word of words.split(' ')) if (word) this.clusters.set(word, cluster);
    });
    this.firstNames = new Set(data.firstNames);
    this.surnames = new Set(data.surnames);
    this.nameWords = new Set(data.personNameWords);
    this.companyWords = new Set(data.companyWords);
    this.designators = new Set(data.orgDesignators);
    this.orgKeywords = new Set(data.orgKeywords);
    this.common = new Set(data.commonWords);
    this.places = buildTrie(data.places);
    this.titles = buildTrie(data.personTitles);
  }

  isCommonWord(lower: string): boolean {
    return this.common.has(lower);
  }

  isDesignator(word: string): boolean {
    return this.designators.has(word);
  }

  isOrgKeyword(word: string): boolean {
    return this.orgKeywords.has(word);
  }

  isCompanyWord(word: string): boolean {
    return this.companyWords.has(word);
  }

  /** The words are exactly a known place name. */
  isPlace(words: readonly string[]): boolean {
    return words.length > 0 && longestMatch(this.places, words, 0) === words.length;
  }

  isTitle(word: string): boolean {
    return longestMatch(this.titles, [word], 0) === 1;
  }

  mark(words: readonly string[]): TokenMarks[] {
    const marks: TokenMarks[] = words.map((word) => ({
      firstName: this.firstNames.has(word),
      surname: this.surnames.has(word),
      nameWord: this.nameWords.has(word),
      companyWord: this.companyWords.has(word),
      place: null,
      designator: this.designators.has(word),
      orgKeyword: this.orgKeywords.has(word),
      title: false,
      common: this.common.has(word.toLowerCase()),
      cluster: this.clusters.get(word.toLowerCase()) ?? null,
    }));
    for (let i = 0; i < words.length; ) {
      const length = /^\p{Lu}/u.test(words[i]!) ? longestMatch(this.places, words, i) : 0;
      if (length === 0) {
        i += 1;
        continue;
      }
      for (let j = i; j < i + length; j++) marks[j]!.place = j === i ? 'B' : 'I';
      i += length;
    }
    for (let i = 0; i < words.length; i++) {
      const length = longestMatch(this.titles, words, i);
      if (length > 0) marks[i + length - 1]!.title = true;
    }
    return marks;
  }
}
