/**
 * The answer benchmark's question set, built from Chroma's chunking
 * evaluation (MIT): each corpus is cut into web pages (wikitexts at its
 * article headings, the others every ~3,000 characters at a line break); a
 * question's gold pages are those overlapping one of its gold excerpts or holding its text, and its
 * distractors are the pages that share most of its words (BM25) without
 * holding an excerpt. The search engine of the run lists the gold and
 * distractor pages in BM25 order, so the answer sentence is always in one of
 * the pages read, among distractors. Every fourth question is asked a second
 * time with its gold pages left out (a control: the right answer is then that
 * the sources do not answer); the benchmark asks the controls on an app of
 * their own, so no cache answers them with the gold pages.
 */
import { rulerWords } from '../ruler-words.js';
import {
  chromaPages,
  readChromaCorpora,
  readChromaQuestions,
  type BenchPage,
  type ChromaExcerpt,
} from '../chroma-dataset.js';

export type { BenchPage } from '../chroma-dataset.js';
import { seededRandom } from '../../core/seeded-random.js';

export interface BenchQuestion {
  question: string;
  corpusId: string;
  excerpts: ChromaExcerpt[];
  gold: string[];
  /** Gold and distractor page ids, in the order the engine lists them. */
  listed: string[];
  /** A control: the gold pages are left out, so the right answer is "the sources do not answer". */
  control: boolean;
}

function bm25Index(pages: BenchPage[]) {
  const docs = pages.map((p) => {
    const counts = new Map<string, number>();
    for (const t of rulerWords(`${p.title} ${p.text}`)) counts.set(t, (counts.get(t) ?? 0) + 1);
    let length = 0;
    for (const c of counts.values()) length += c;
    return { counts, length };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.counts.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const average = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  return (query: string) => {
    const terms = [...new Set(rulerWords(query))];
    return docs.map((d) => {
      let score = 0;
      for (const t of terms) {
        const tf = d.counts.get(t) ?? 0;
        if (!tf) continue;
        const idf = Math.log(1 + (docs.length - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
        score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * (d.length / average)));
      }
      return score;
    });
  };
}

export interface QuestionSet {
  pages: BenchPage[];
  questions: BenchQuestion[];
}

/** `skip` leaves out the first questions of the seeded draw: the held-out set is the draw after the tuned-on 120. */
export function buildQuestionSet(options: {
  count: number;
  distractors: number;
  seed?: number;
  skip?: number;
}): QuestionSet {
  const all = readChromaQuestions();
  const corpora = readChromaCorpora([...new Set(all.map((q) => q.corpusId))]);
  const pages = [...corpora].flatMap(([id, text]) => chromaPages(id, text));
  const score = bm25Index(pages);
  const random = seededRandom(options.seed ?? 7);
  const picked = [...all]
    .map((q) => ({ q, key: random() }))
    .sort((a, b) => a.key - b.key)
    .slice(options.skip ?? 0, (options.skip ?? 0) + options.count)
    .map((x) => x.q);
  const questions: BenchQuestion[] = [];
  for (const q of picked) {
    const own = pages.filter((p) => p.corpusId === q.corpusId);
    // A gold page overlaps an excerpt, or holds its text elsewhere (the 10-K corpus repeats paragraphs):
    // a control that kept such a page would still be answerable.
    const gold = own
      .filter((p) => q.excerpts.some((e) => (e.start < p.end && e.end > p.start) || p.text.includes(e.content.trim())))
      .map((p) => p.id);
    if (gold.length === 0) continue;
    const scores = score(q.question);
    const ranked = pages.map((p, i) => ({ p, s: scores[i]! })).sort((a, b) => b.s - a.s);
    const distractors = ranked.filter((r) => !gold.includes(r.p.id) && r.s > 0).slice(0, options.distractors);
    const listed = ranked.filter((r) => gold.includes(r.p.id) || distractors.includes(r)).map((r) => r.p.id);
    questions.push({ question: q.question, corpusId: q.corpusId, excerpts: q.excerpts, gold, listed, control: false });
    // Every fourth question is also asked without its gold pages: the sources then do not answer it.
    if (questions.length % 4 === 0) {
      questions.push({
        question: q.question,
        corpusId: q.corpusId,
        excerpts: q.excerpts,
        gold,
        listed: listed.filter((id) => !gold.includes(id)),
        control: true,
      });
    }
  }
  return { pages, questions };
}
