/**
 * npm run bench:answer — quality of the agent area's cited answers, offline.
 *
 * Questions with known answer passages (bench/answer/question-set.ts, from
 * Chroma's chunking evaluation) are asked through agent.search with
 * include_answer, against a local web: the sandbox web serves the pages, and
 * a local engine lists each question's gold page(s) among its distractors in
 * BM25 order. Per answer:
 *   sentence   the answer quotes a gold excerpt (or a sentence of one, 6+ words),
 *              compared as text (the answer's markdown escapes undone)
 *   key phrase the answer holds 70% or more of a gold excerpt's content words
 *   citation precision  share of the answer's [n] that point at a gold page
 *   verbatim   the citation checker finds no problem (services/answers/citations.ts)
 *   abstained  for the controls (asked without their gold pages): the answer
 *              says the sources do not answer
 * beside the baseline "first sentence of the top result" in the same run.
 *
 * BENCH_QUESTIONS (default 472, the whole draw) questions, drawn with a fixed seed; BENCH_DEPTHS
 * (default "basic") the search depths to run; BENCH_ORDERS (default "engine,shuffled") the orders the engine lists
 * the pages in (BM25 over the pages themselves, or a seeded shuffle per question). Then the per-question results
 * under the evaluation protocol (bench/answer/cv.ts): the page choice and answering models fitted on the training folds
 * (bench/answer/choice-fit.ts), mean ± spread over 5 folds beside the baseline, the final fold with
 * --final. The bench checks that the evidence it fits on decides as the product answered and that
 * the shipped model is its fit on the CV folds; --write-model writes that fit.
 * Dataset as for bench:rag.
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CODE_ROOT, PACKAGE_ROOT } from '../core/paths.js';
import { createQuarry, type QuarryApp } from '../app/create-quarry.js';
import { silentLogger } from '../core/logger.js';
import { checkAnswer, citationNumbers, NO_ANSWER, normalizeQuoted } from '../services/answers/citations.js';
import { unescapeMarkdownText } from '../services/markdown/escape.js';
import { sentences } from '../services/ranking/passages.js';
import { rulerWords } from './ruler-words.js';
import { startSandboxWeb, type SandboxWeb } from '../test/sandbox/sandbox-web.js';
import { CHROMA_DATASET_DIR, chromaDatasetPresent } from './chroma-dataset.js';
import { buildQuestionSet, type BenchPage, type BenchQuestion } from './answer/question-set.js';
import { cvRows, reportAnswerCv, type AnsweredQuestion } from './answer/cv.js';
import { decide, fitAnswerChoice, type ChoiceQuestion } from './answer/choice-fit.js';
import { finalRequested } from './protocol/report.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { seededRandom, shuffleInPlace } from '../core/seeded-random.js';
import { fnv1a } from '../services/ranking/fnv1a.js';
import { ANSWER_CHOICE_FILE, shippedAnswerChoice } from '../services/answers/answer-choice.js';
import { answerEvidence, quotedSentences, renderQuotes, sourcesAnswerable } from '../services/answers/extractive.js';
import { rankPagePassages } from '../services/ranking/page-passages.js';
import { rerankerForRequest } from '../services/ranking/reranker.js';
import { DEPTHS as DEPTH_PROFILES } from '../plugins/agent/depths.js';
import type { SearchDepth } from '../plugins/agent/schemas.js';

/** Questions of the draw (every question of Chroma's set that has a page to answer it). */
const COUNT = Number(process.env.BENCH_QUESTIONS ?? 472);
/** `--write-model`: fit the answer choice on all CV folds and write the shipped file. */
const WRITE_MODEL = process.argv.includes('--write-model');
const DEPTHS = (process.env.BENCH_DEPTHS ?? 'basic').split(',');
/**
 * The orders the engine lists each question's pages in: `engine`, by BM25 over the very pages read (so the first
 * result is gold unusually often), and `shuffled`, a seeded shuffle per question — a web engine's order is informative,
 * but not that informative, and the shuffled run shows what the page choice owes to the order.
 */
const ORDERS = (process.env.BENCH_ORDERS ?? 'engine,shuffled').split(',');
for (const order of ORDERS)
  if (order !== 'engine' && order !== 'shuffled') throw new Error(`BENCH_ORDERS: unknown order ${order}`);

/** The question's pages in the order the run's engine lists them. */
function listedIn(order: string, question: BenchQuestion): string[] {
  if (order === 'engine') return question.listed;
  const pages = [...question.listed];
  shuffleInPlace(pages, seededRandom(fnv1a(question.question)));
  return pages;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function renderPage(page: BenchPage): string {
  const paragraphs = page.text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => `<p>${escapeHtml(l.trim())}</p>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>${escapeHtml(page.title)}</h1>\n${paragraphs.join('\n')}\n</article></main><footer>Benchmark page</footer></body></html>`;
}

const normal = (text: string) => normalizeQuoted(text).toLowerCase();
const contentWords = (text: string) => new Set(rulerWords(text));

interface Scored {
  sentence: boolean;
  keyPhrase: boolean;
  citations: number;
  goldCitations: number;
  answered: boolean;
  /** The answer's first citation is a gold page. */
  firstGold: boolean;
  verbatimProblems: number;
}

function score(
  answer: string,
  question: BenchQuestion,
  citedPageIds: Array<string | null>,
): Omit<Scored, 'verbatimProblems'> {
  // The answer is markdown (page text escaped: "<unk>" arrives as "&lt;unk&gt;"); the excerpts are plain text.
  const plain = unescapeMarkdownText(answer);
  const text = normal(plain);
  const sentence = question.excerpts.some(
    (e) =>
      text.includes(normal(e.content)) ||
      sentences(e.content).some((s) => s.text.split(/\s+/).length >= 6 && text.includes(normal(s.text))),
  );
  const answerWords = contentWords(plain);
  const keyPhrase = question.excerpts.some((e) => {
    const words = [...contentWords(e.content)];
    return words.length > 0 && words.filter((w) => answerWords.has(w)).length / words.length >= 0.7;
  });
  const gold = citedPageIds.filter((id) => id !== null && question.gold.includes(id)).length;
  return {
    sentence,
    keyPhrase,
    citations: citedPageIds.length,
    goldCitations: gold,
    answered: answer.trim() !== NO_ANSWER,
    firstGold: citedPageIds[0] != null && question.gold.includes(citedPageIds[0]),
  };
}

function summarise(label: string, rows: Array<Scored & { control: boolean }>): string[] {
  const share = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
  const asked = rows.filter((r) => !r.control);
  const controls = rows.filter((r) => r.control);
  const cited = asked.reduce((s, r) => s + r.citations, 0);
  return [
    label,
    share(asked.filter((r) => r.sentence).length, asked.length),
    share(asked.filter((r) => r.keyPhrase).length, asked.length),
    share(
      asked.reduce((s, r) => s + r.goldCitations, 0),
      cited,
    ),
    share(asked.filter((r) => r.answered).length, asked.length),
    share(controls.filter((r) => !r.answered).length, controls.length),
    share(rows.filter((r) => r.verbatimProblems === 0).length, rows.length),
  ];
}

async function main(): Promise<void> {
  if (!chromaDatasetPresent()) {
    console.log(
      `Chunking dataset not found at ${CHROMA_DATASET_DIR}; nothing to benchmark (set CHUNKING_DATASET_DIR to point at it).`,
    );
    return;
  }
  const set = buildQuestionSet({ count: COUNT, distractors: 7, skip: 0 });
  const web = await startSandboxWeb();
  const pageById = new Map(set.pages.map((p) => [p.id, p]));
  const urlOf = (id: string) => `${web.url}/bench/${id}`;
  const idOfUrl = new Map<string, string>();
  for (const page of set.pages) {
    web.addPage(`/bench/${page.id}`, renderPage(page));
    idOfUrl.set(urlOf(page.id), page.id);
  }
  const controls = set.questions.filter((q) => q.control).length;
  console.log(
    `Answer benchmark: ${set.questions.length - controls} questions (+ ${controls} controls without their gold pages) over ${set.pages.length} pages (${DEPTHS.join(', ')} depth), gold pages among up to 7 distractors each, no LLM`,
  );
  try {
    const table: string[][] = [
      [
        '',
        'answer sentence',
        'key phrase',
        'citation precision',
        'answered',
        'abstained (controls)',
        'verbatim + [n] ok',
      ],
    ];
    for (const depth of DEPTHS)
      for (const order of ORDERS) {
        const system: Array<
          Scored & {
            control: boolean;
            question: string;
            choice: ChoiceQuestion;
            sentenceGold: boolean[];
            leadGold: boolean;
          }
        > = [];
        let disagreements = 0;
        const baseline: Array<Scored & { control: boolean }> = [];
        const started = performance.now();
        // A control asks its question's words again, so it runs on an app of its own: the agent trims
        // the query and would otherwise be answered from the search cache with the gold pages listed.
        for (const control of [false, true]) {
          const asked = set.questions.filter((q) => q.control === control);
          const bench = await startBenchApp(
            web,
            pageById,
            new Map(asked.map((q) => [q.question.trim(), listedIn(order, q)])),
          );
          try {
            for (const question of asked) {
              const ctx = {
                signal: new AbortController().signal,
                logger: silentLogger(),
                progress: () => undefined,
                host: 'cli' as const,
              };
              const out = (await bench.app.registry.invoke(
                'agent.search',
                {
                  query: question.question,
                  include_answer: true,
                  include_raw_content: 'text',
                  max_results: 8,
                  search_depth: depth,
                },
                ctx,
              )) as {
                answer: string;
                results: Array<{ url: string; title: string; read: boolean; raw_content?: string | null }>;
              };
              const pageIds = out.results.map((r) => idOfUrl.get(r.url) ?? null);
              const evidence = await pageEvidenceOf(question.question, out.results, bench.app, depth);
              const isGold = (citation: number) => question.gold.includes(pageIds[citation - 1] ?? '');
              const choice: ChoiceQuestion = {
                control,
                answerable: evidence.answerable,
                pages: evidence.pages,
                gold: evidence.pages.map((p) => isGold(p.citation)),
              };
              // Per page: the answer it would lead (the same sentences the product quotes) quotes a gold sentence.
              const sentenceGold = evidence.pages.map((p) => {
                const top = evidence.ranked.find((c) => c.citation === p.citation)!;
                const text = renderQuotes(quotedSentences(evidence.ranked, top, 3));
                return score(text, question, []).sentence;
              });
              // The bench's evidence must be the product's: the shipped model decides on it as the answer did.
              const shipped = decide(shippedAnswerChoice(), choice);
              const firstCited = citationNumbers(out.answer)[0] ?? null;
              const answered = out.answer.trim() !== NO_ANSWER;
              const shippedText = shipped.answered
                ? renderQuotes(
                    quotedSentences(evidence.ranked, evidence.ranked.find((c) => c.citation === shipped.citation)!, 3),
                  )
                : NO_ANSWER;
              if (
                shipped.answered !== answered ||
                shippedText !== out.answer ||
                (answered && shipped.citation !== firstCited)
              )
                disagreements++;
              const leadGold = shipped.citation !== null && isGold(shipped.citation);
              const cited = citationNumbers(out.answer).map((n) => pageIds[n - 1] ?? null);
              const problems = checkAnswer(
                out.answer,
                out.results.map((r) => ({ text: r.raw_content ?? '' })),
                { extractive: true },
              );
              system.push({
                ...score(out.answer, question, cited),
                verbatimProblems: problems.length,
                control,
                question: question.question,
                choice,
                sentenceGold,
                leadGold,
              });
              if (process.env.BENCH_VERBOSE)
                console.log(
                  JSON.stringify({
                    q: question.question,
                    gold: question.excerpts.map((e) => e.content.slice(0, 200)),
                    answer: out.answer,
                    ok: system.at(-1),
                  }),
                );
              const top = out.results[0];
              const first = top?.raw_content ? (sentences(top.raw_content)[0]?.text ?? '') : '';
              baseline.push({
                ...score(first ? `${first} [1]` : NO_ANSWER, question, first ? [pageIds[0] ?? null] : []),
                verbatimProblems: 0,
                control,
              });
            }
          } finally {
            await bench.close();
          }
        }
        const seconds = (performance.now() - started) / 1000;
        table.push(
          summarise(
            `quarry extractive (${depth}, ${order} order, ${(seconds / set.questions.length).toFixed(2)} s/question)`,
            system,
          ),
        );
        table.push(summarise(`baseline: first sentence of the top result (${order} order)`, baseline));
        const rightOf = (r: Scored & { control: boolean }) => (r.control ? !r.answered : r.sentence);
        const rows: AnsweredQuestion[] = system.map((r, i) => ({
          question: r.question,
          control: r.control,
          right: { 'quarry as shipped': rightOf(r), 'first result': rightOf(baseline[i]!) },
          cited: { 'quarry as shipped': r.firstGold, 'first result': baseline[i]!.firstGold },
          lead: { 'quarry as shipped': r.leadGold, 'first result': baseline[i]!.firstGold },
          choice: r.choice,
          sentenceGold: r.sentenceGold,
        }));
        console.log(
          disagreements === 0
            ? `\nThe bench's page evidence decides as the product did on all ${rows.length} questions.`
            : `\nWARNING: on ${disagreements} of ${rows.length} questions the shipped model decides otherwise on the bench's evidence than the answer did: the CV below does not measure the product.`,
        );
        if (disagreements > 0) process.exitCode = 1;
        console.log(`\nCross-validated (${depth} depth, pages listed in ${order} order):`);
        reportAnswerCv(rows, ['quarry as shipped', 'first result'], 'first result', { final: finalRequested() });
        if (order === 'engine') reportShippedModel(rows, depth);
      }
    const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
    console.log('');
    for (const row of table)
      console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  } finally {
    await web.close();
  }
}

/**
 * Each read result's evidence as the agent area computes it (plugins/agent/search.ts: the read pages' passages ranked
 * together with the depth's embedder and any configured reranker, citations numbered by result position).
 */
async function pageEvidenceOf(
  query: string,
  results: Array<{ title: string; read: boolean; raw_content?: string | null }>,
  app: QuarryApp,
  depth: string,
) {
  const profile = DEPTH_PROFILES[depth as SearchDepth];
  const embedder = profile.embeddings ? await app.services.semantic.embedderOrNull(silentLogger()) : null;
  const reranker = rerankerForRequest(await app.services.models.passageReranker());
  const read = results.flatMap((r, i) =>
    r.read && r.raw_content ? [{ n: i + 1, title: r.title, text: r.raw_content }] : [],
  );
  const ranked = await rankPagePassages(
    query,
    read.map((r) => ({ title: r.title, text: r.text })),
    embedder,
    { reranker },
  );
  const sources = read.map((r, i) => ({ ...r, passages: ranked[i]!.passages }));
  return {
    ...(await answerEvidence(query, sources, { maxSentences: 3, embedder, reranker })),
    answerable: sourcesAnswerable(sources),
  };
}

/** The shipped model is the fit on all CV folds: say whether it still is, or write it (`--write-model`). */
function reportShippedModel(rows: AnsweredQuestion[], depth: string): void {
  if (depth !== 'basic') return;
  const fitted = `${JSON.stringify(fitAnswerChoice(cvRows(rows).map((r) => r.choice)), null, 2)}\n`;
  // The source tree's file is the one committed; the built copy is written too so the next run reads the new fit.
  const source = join(PACKAGE_ROOT, relative(CODE_ROOT, ANSWER_CHOICE_FILE));
  if (WRITE_MODEL) {
    for (const file of new Set([source, ANSWER_CHOICE_FILE])) writeFileSync(file, fitted);
    console.log(`Wrote ${source} (fitted on the ${cvRows(rows).length} questions of the CV folds).`);
  } else if (readFileSync(source, 'utf8') !== fitted) {
    console.log(
      `WARNING: the shipped ${source} is not this run's fit on the CV folds; run the bench with --write-model to refit it.`,
    );
    process.exitCode = 1;
  } else console.log("The shipped answer-choice model is this run's fit on the CV folds, byte for byte.");
}

/** A fresh app (empty caches) whose one engine lists, for each query, the pages `listed` names, in order. */
async function startBenchApp(
  web: SandboxWeb,
  pageById: Map<string, BenchPage>,
  listed: Map<string, string[]>,
): Promise<{ app: QuarryApp; close(): Promise<void> }> {
  const engine = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    const items = (listed.get(query) ?? []).map((id) => ({
      link: `${web.url}/bench/${id}`,
      name: pageById.get(id)!.title,
      summary: pageById.get(id)!.text.slice(0, 200),
    }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items }));
  });
  await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
  const enginePort = (engine.address() as AddressInfo).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-answer-'));
  const app = await createQuarry({
    env: {},
    overrides: {
      dataDir,
      logLevel: 'silent',
      apiKeys: ['bench-key-0123456789'],
      outbound: { allowHosts: [`127.0.0.1:${web.port}`, `127.0.0.1:${enginePort}`], retries: 0, respectRobots: false },
      customEngines: [
        {
          type: 'json',
          id: 'bench_web',
          name: 'Benchmark engine',
          urlTemplate: `http://127.0.0.1:${enginePort}/search?q={query}`,
          results: 'items',
          fields: { url: 'link', title: 'name', snippet: 'summary' },
        },
      ],
      search: { defaultEngines: ['bench_web'] },
      vectorIndex: { enabled: false },
    },
  });
  return {
    app,
    async close() {
      await app.close();
      await new Promise<void>((resolve) => engine.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
