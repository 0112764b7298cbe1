/**
 * Per-engine playback state: the recorded answers to serve in order, the
 * failure mode, and the requests the engine received.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readMaybeGzipped } from './fixture-pages.js';

export interface EngineRecording {
  /** Absolute path; *.gz is gunzipped. */
  file: string;
  contentType: string;
  status?: number;
}

export type EngineMode =
  | { kind: 'ok' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'hang' }
  | { kind: 'fail'; status: number }
  | { kind: 'rate_limited' }
  | { kind: 'captcha' }
  | { kind: 'reset' };

export interface EngineRequest {
  method: string;
  /** Full URL as received, e.g. http://127.0.0.1:PORT/engines/bing/search?q=x */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface PreparedAnswer {
  body: Buffer;
  contentType: string;
  status: number;
}

/** Builds an answer from the request (an engine whose results change with the query or over time). */
export type EngineAnswerer = (request: URL) => PreparedAnswer;

interface EngineState {
  answerer?: EngineAnswerer;
  answers: PreparedAnswer[];
  served: number;
  delayMs: number;
  mode: EngineMode;
  requests: EngineRequest[];
}

const TEXTUAL = /(html|json|xml|text|javascript)/i;

export function isTextual(contentType: string): boolean {
  return TEXTUAL.test(contentType);
}

/** export.arxiv.org → arxiv.org, www.bbc.co.uk → bbc.co.uk: close enough to a registrable domain. */
export function baseDomain(host: string): string {
  const labels = host.toLowerCase().split('.');
  const keep =
    labels.length > 2 && labels[labels.length - 2]!.length <= 3 && labels[labels.length - 1]!.length === 2 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/**
 * The domain a recording was made against, from its sibling .meta.json
 * (`X.response.html` or `X.html` → `X.meta.json`) when there is one.
 */
export function recordedHosts(file: string): string[] {
  const stem = file
    .replace(/\.gz$/, '')
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/\.response$/, '');
  const metaFile = `${stem}.meta.json`;
  if (!existsSync(metaFile)) return [];
  try {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { url?: string; request?: { uri?: string } };
    const recordedUrl = meta.request?.uri ?? meta.url;
    return recordedUrl ? [baseDomain(new URL(recordedUrl).hostname)] : [];
  } catch {
    return [];
  }
}

/** Reads a recording; `rewrite` turns a textual body into its sandbox form. */
export function prepareAnswer(
  recording: EngineRecording,
  rewrite?: (text: string, ownHosts: string[]) => string,
): PreparedAnswer {
  let raw: Buffer;
  try {
    raw = readMaybeGzipped(recording.file);
  } catch (error) {
    throw new Error(`sandbox web: cannot read recording ${recording.file}: ${(error as Error).message}`);
  }
  const body =
    rewrite && isTextual(recording.contentType)
      ? Buffer.from(rewrite(raw.toString('utf8'), recordedHosts(recording.file)), 'utf8')
      : raw;
  return { body, contentType: recording.contentType, status: recording.status ?? 200 };
}

export class EnginePlayback {
  private readonly engines = new Map<string, EngineState>();

  private state(id: string): EngineState {
    let state = this.engines.get(id);
    if (!state) {
      state = { answers: [], served: 0, delayMs: 0, mode: { kind: 'ok' }, requests: [] };
      this.engines.set(id, state);
    }
    return state;
  }

  /** Answers every request with answerer(request URL), until play() is called again. */
  answerWith(id: string, answerer: EngineAnswerer, delayMs: number): void {
    const state = this.state(id);
    state.answerer = answerer;
    state.delayMs = delayMs;
  }

  answererOf(id: string): EngineAnswerer | undefined {
    return this.engines.get(id)?.answerer;
  }

  /** Replaces the engine's answers and restarts their sequence. */
  play(id: string, answers: PreparedAnswer[], delayMs: number): void {
    const state = this.state(id);
    delete state.answerer;
    state.answers = answers;
    state.served = 0;
    state.delayMs = delayMs;
  }

  setMode(id: string, mode: EngineMode): void {
    this.state(id).mode = mode;
  }

  mode(id: string): EngineMode {
    return this.state(id).mode;
  }

  delayMs(id: string): number {
    return this.state(id).delayMs;
  }

  /** The next answer in sequence; the last one repeats. */
  nextAnswer(id: string): PreparedAnswer | undefined {
    const state = this.state(id);
    const answer = state.answers[Math.min(state.served, state.answers.length - 1)];
    if (answer) state.served++;
    return answer;
  }

  record(id: string, request: EngineRequest): void {
    this.state(id).requests.push(request);
  }

  requests(id: string): EngineRequest[] {
    return [...(this.engines.get(id)?.requests ?? [])];
  }
}
