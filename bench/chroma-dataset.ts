/**
 * Chroma's chunking evaluation (../shared/fixtures/datasets/chunking/chroma-chunking-evaluation,
 * MIT): five corpora as markdown files and 472 questions, each with gold excerpts given as code
 * point offsets into its corpus. Read by the chunking, RAG and answer benchmarks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CHROMA_DATASET_DIR = resolve(
  process.env.CHUNKING_DATASET_DIR ?? '../shared/fixtures/datasets/chunking/chroma-chunking-evaluation',
);

export interface ChromaExcerpt {
  content: string;
  /** Code point offsets into the corpus, end exclusive. */
  start: number;
  end: number;
}

export interface ChromaQuestion {
  question: string;
  corpusId: string;
  excerpts: ChromaExcerpt[];
}

export function chromaDatasetPresent(dir = CHROMA_DATASET_DIR): boolean {
  return existsSync(join(dir, 'questions_df.csv'));
}

/** RFC 4180 rows: quoted fields may hold commas, newlines and doubled quotes. */
export function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

export function readChromaQuestions(dir = CHROMA_DATASET_DIR): ChromaQuestion[] {
  const [header, ...rows] = parseCsv(readFileSync(join(dir, 'questions_df.csv'), 'utf8'));
  const column = (name: string) => header!.indexOf(name);
  return rows
    .filter((row) => row.length === header!.length)
    .map((row) => ({
      question: row[column('question')]!,
      corpusId: row[column('corpus_id')]!,
      excerpts: (
        JSON.parse(row[column('references')]!) as Array<{ content: string; start_index: number; end_index: number }>
      ).map((r) => ({
        content: r.content,
        start: r.start_index,
        end: r.end_index,
      })),
    }));
}

export function readChromaCorpora(ids: string[], dir = CHROMA_DATASET_DIR): Map<string, string> {
  return new Map(ids.map((id) => [id, readFileSync(join(dir, `${id}.md`), 'utf8')]));
}

export interface BenchPage {
  id: string;
  corpusId: string;
  title: string;
  /** Page text (a slice of the corpus). */
  text: string;
  /** Code point offsets of the slice in its corpus. */
  start: number;
  end: number;
}

const PAGE_CHARS = 3000;
const WIKI_TITLE = /^ = ([^=].*?) = $/;

/**
 * A corpus cut into web pages: wikitexts at its article headings (" = Title = "), the others every
 * ~3,000 characters at a line break; each page knows its code point offsets in the corpus.
 */
export function chromaPages(corpusId: string, text: string): BenchPage[] {
  const points = [...text];
  const lines: Array<{ start: number; end: number; text: string }> = [];
  let start = 0;
  for (let i = 0; i <= points.length; i++) {
    if (i === points.length || points[i] === '\n') {
      lines.push({ start, end: i, text: points.slice(start, i).join('') });
      start = i + 1;
    }
  }
  const pages: BenchPage[] = [];
  let current: { start: number; end: number; title: string } | null = null;
  const flush = () => {
    if (current && current.end > current.start) {
      const body = points.slice(current.start, current.end).join('');
      if (body.trim())
        pages.push({
          id: `${corpusId}-${pages.length + 1}`,
          corpusId,
          title: current.title,
          text: body,
          start: current.start,
          end: current.end,
        });
    }
    current = null;
  };
  let article = corpusId.replace(/_/g, ' ');
  let part = 0;
  for (const line of lines) {
    const heading = corpusId === 'wikitexts' ? WIKI_TITLE.exec(line.text) : null;
    if (heading) {
      flush();
      article = heading[1]!.trim();
      part = 0;
    }
    if (!current)
      current = { start: line.start, end: line.end, title: part++ === 0 ? article : `${article} (part ${part})` };
    current.end = line.end;
    if (current.end - current.start >= PAGE_CHARS) flush();
  }
  flush();
  return pages;
}
