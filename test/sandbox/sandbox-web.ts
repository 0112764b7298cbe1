/**
 * The sandbox web: a local HTTP server on 127.0.0.1 that tests start to stand
 * in for the internet. It plays recorded engine answers (with result links
 * rewritten to point back at it), serves real pages, robots.txt, pages added
 * by tests, and receives webhooks. Plain node:http so nothing of Quarry's own
 * stack is involved.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { captchaPage, fixturePages, realPages } from './fixture-pages.js';
import {
  EnginePlayback,
  prepareAnswer,
  type EngineAnswerer,
  type EngineMode,
  type EngineRecording,
  type EngineRequest,
} from './engine-playback.js';
import { Delays, flattenHeaders, readBody, send } from './http-helpers.js';
import { rewriteLinks } from './link-rewriter.js';
import { pickPage, renderSitePage, titleFromUrl } from './site-page.js';
import { findTopicPage, renderTopicPage } from './topic-pages.js';
import { WebhookReceiver, type WebhookDelivery } from './webhook-receiver.js';

export type { EngineAnswerer, EngineMode, EngineRecording, EngineRequest, PreparedAnswer } from './engine-playback.js';
export type { WebhookDelivery } from './webhook-receiver.js';

export interface AddPageOptions {
  contentType?: string;
  status?: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface SandboxWeb {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /**
   * Serve a recorded engine response for every request under /engines/<id>/ (any path, any query). Several recordings
   * are served in order, the last one repeating.
   */
  playEngine(
    id: string,
    recording: EngineRecording | EngineRecording[],
    opts?: { rewriteLinks?: boolean; delayMs?: number },
  ): void;
  /**
   * Answer every request under /engines/<id>/ with answerer(request URL): results that change with the query or over
   * time.
   */
  answerEngine(id: string, answerer: EngineAnswerer, opts?: { delayMs?: number }): void;
  /** `${url}/engines/${id}` — tests set engines.<id>.baseUrl to this. */
  engineBaseUrl(id: string): string;
  setEngineMode(id: string, mode: EngineMode): void;
  engineRequests(id: string): EngineRequest[];
  /** Real pages from test/fixtures/sandbox/pages, plus js-only and topic/<slug>, served at /pages/<name>. */
  pageUrl(name: string): string;
  /** Every sandbox URL a rewritten result link points to, in the order first seen. */
  sitePages(): string[];
  /** Serves body at path (exact path+query match first, then path alone); returns the full URL. */
  addPage(path: string, body: string, opts?: AddPageOptions): string;
  /**
   * Serves binary content at path (same matching as addPage), e.g. model files in the hub layout; returns the full URL.
   */
  addFile(path: string, body: Buffer, contentType?: string): string;
  /** Body of /robots.txt; null (the default) answers 404. */
  setRobots(body: string | null): void;
  /** Webhook receiver at /hooks/<name>: records every delivery, answers 200 unless told otherwise. */
  webhookUrl(name: string): string;
  /** Answer 500 to the next N deliveries to this hook. */
  setWebhookFailures(name: string, failFirstN: number): void;
  /**
   * Never answer the next N deliveries to this hook (the connection stays open until the sender gives up or close()).
   */
  setWebhookHang(name: string, hangFirstN: number): void;
  /** Status for deliveries that are not in the failing first N (default 200). */
  setWebhookStatus(name: string, status: number): void;
  /** Every delivery received, failed ones included (see `status`). */
  webhooks(name: string): WebhookDelivery[];
  /** Resolves once `count` deliveries (failed ones included) have arrived; rejects after timeoutMs (default 5000). */
  waitForWebhook(name: string, count?: number, timeoutMs?: number): Promise<WebhookDelivery[]>;
  /** Every request received, path including the query string. */
  requestLog(): Array<{ method: string; path: string }>;
  /** When each request under pathPrefix arrived (performance.now()), in order: for pacing checks. */
  arrivals(pathPrefix: string): number[];
  /** Requests under pathPrefix not yet answered nor dropped by their sender (a delayed page in flight). */
  openRequests(pathPrefix?: string): number;
  /** Stops the server, dropping open (even hanging) connections. */
  close(): Promise<void>;
}

interface AddedPage {
  body: string | Buffer;
  contentType: string;
  status: number;
  delayMs: number;
  headers: Record<string, string>;
}

const HTML = 'text/html; charset=utf-8';

export async function startSandboxWeb(): Promise<SandboxWeb> {
  const engines = new EnginePlayback();
  const webhooks = new WebhookReceiver();
  const delays = new Delays();
  const addedPages = new Map<string, AddedPage>();
  const siteLinks = new Set<string>();
  const log: Array<{ method: string; path: string }> = [];
  const arrivedAt: number[] = [];
  const sockets = new Set<Socket>();
  let robots: string | null = null;
  let closed = false;

  const open = new Set<string[]>();
  const server = createServer((req, res) => {
    log.push({ method: req.method ?? 'GET', path: req.url ?? '/' });
    arrivedAt.push(performance.now());
    // One entry per request (an array, so two requests for one path stay two), gone once answered or dropped.
    const entry = [req.url ?? '/'];
    open.add(entry);
    res.on('close', () => open.delete(entry));
    route(req, res).catch((error: unknown) => send(res, 500, `sandbox web error: ${String(error)}`));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? '/', url);
    const path = requestUrl.pathname;
    const added = addedPages.get(path + requestUrl.search) ?? addedPages.get(path);
    if (added) return serveAddedPage(req, res, added);
    const engine = /^\/engines\/([^/]+)(\/.*)?$/.exec(path);
    if (engine) return serveEngine(req, res, decodeURIComponent(engine[1]!), requestUrl);
    if (path.startsWith('/pages/'))
      return servePage(res, decodeURIComponent(path.slice('/pages/'.length)).replace(/\.html$/, ''));
    const site = /^\/site\/([^/]+)(\/.*)?$/.exec(path);
    if (site) return serveSitePage(res, site[1]!.toLowerCase(), (site[2] ?? '/') + requestUrl.search, requestUrl);
    if (path === '/robots.txt') return robots === null ? send(res, 404, 'no robots.txt') : send(res, 200, robots);
    const hook = /^\/hooks\/([^/]+)$/.exec(path);
    if (hook) return receiveWebhook(req, res, decodeURIComponent(hook[1]!));
    send(res, 404, `sandbox web: nothing at ${path}`);
  }

  async function serveAddedPage(req: IncomingMessage, res: ServerResponse, page: AddedPage): Promise<void> {
    await readBody(req);
    if (!(await delays.wait(page.delayMs))) return;
    send(res, page.status, page.body, { 'content-type': page.contentType, ...page.headers });
  }

  async function serveEngine(req: IncomingMessage, res: ServerResponse, id: string, requestUrl: URL): Promise<void> {
    const body = await readBody(req);
    engines.record(id, {
      method: req.method ?? 'GET',
      url: requestUrl.href,
      headers: flattenHeaders(req.headers),
      body,
    });
    const mode = engines.mode(id);
    if (mode.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (mode.kind === 'hang') return; // never answered; close() drops the socket
    const delayMs = engines.delayMs(id) + (mode.kind === 'slow' ? mode.delayMs : 0);
    if (!(await delays.wait(delayMs))) return;
    if (mode.kind === 'fail') return send(res, mode.status, `sandbox: engine ${id} is failing with ${mode.status}`);
    if (mode.kind === 'rate_limited') return send(res, 429, 'Too Many Requests', { 'retry-after': '60' });
    if (mode.kind === 'captcha') return send(res, 200, captchaPage(), { 'content-type': HTML });
    const answerer = engines.answererOf(id);
    const answer = answerer ? answerer(requestUrl) : engines.nextAnswer(id);
    if (!answer) return send(res, 404, `sandbox: no recording played for engine ${id}`);
    send(res, answer.status, answer.body, { 'content-type': answer.contentType });
  }

  function servePage(res: ServerResponse, name: string): void {
    if (name.startsWith('topic/')) {
      const topic = findTopicPage(name.slice('topic/'.length));
      return topic
        ? send(res, 200, renderTopicPage(topic), { 'content-type': HTML })
        : send(res, 404, `no topic page ${name}`);
    }
    const page = fixturePages().find((candidate) => candidate.name === name);
    if (!page) return send(res, 404, `no page ${name}`);
    send(res, 200, page.html, { 'content-type': HTML });
  }

  function serveSitePage(res: ServerResponse, host: string, pathAndQuery: string, requestUrl: URL): void {
    const page = pickPage(host + pathAndQuery, realPages());
    const html = renderSitePage(page, titleFromUrl(host, pathAndQuery), requestUrl.href);
    send(res, 200, html, { 'content-type': HTML });
  }

  async function receiveWebhook(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    const body = await readBody(req);
    const status = webhooks.receive(name, flattenHeaders(req.headers), body);
    if (status === 'hang') return;
    send(res, status, status < 400 ? 'ok' : 'webhook receiver failing on purpose');
  }

  function rewriteForSandbox(text: string, ownHosts: string[]): string {
    const result = rewriteLinks(text, { sandboxUrl: url, keepHosts: ownHosts });
    for (const link of result.links) siteLinks.add(link.sandboxUrl);
    return result.body;
  }

  return {
    url,
    port,
    playEngine(id, recording, opts = {}) {
      const recordings = Array.isArray(recording) ? recording : [recording];
      if (!recordings.length) throw new Error(`sandbox web: playEngine(${id}) needs at least one recording`);
      const rewrite = opts.rewriteLinks === false ? undefined : rewriteForSandbox;
      engines.play(
        id,
        recordings.map((one) => prepareAnswer(one, rewrite)),
        opts.delayMs ?? 0,
      );
    },
    answerEngine(id, answerer, opts = {}) {
      engines.answerWith(id, answerer, opts.delayMs ?? 0);
    },
    engineBaseUrl: (id) => `${url}/engines/${id}`,
    setEngineMode: (id, mode) => engines.setMode(id, mode),
    engineRequests: (id) => engines.requests(id),
    pageUrl: (name) => `${url}/pages/${name.replace(/^\/+/, '')}`,
    sitePages: () => [...siteLinks],
    addPage(path, body, opts = {}) {
      const normalized = path.startsWith('/') ? path : `/${path}`;
      addedPages.set(normalized, {
        body,
        contentType: opts.contentType ?? HTML,
        status: opts.status ?? 200,
        delayMs: opts.delayMs ?? 0,
        headers: opts.headers ?? {},
      });
      return url + normalized;
    },
    addFile(path, body, contentType = 'application/octet-stream') {
      const normalized = path.startsWith('/') ? path : `/${path}`;
      addedPages.set(normalized, { body, contentType, status: 200, delayMs: 0, headers: {} });
      return url + normalized;
    },
    setRobots(body) {
      robots = body;
    },
    webhookUrl: (name) => `${url}/hooks/${encodeURIComponent(name)}`,
    setWebhookFailures: (name, failFirstN) => webhooks.setFailures(name, failFirstN),
    setWebhookStatus: (name, status) => webhooks.setStatus(name, status),
    setWebhookHang: (name, hangFirstN) => webhooks.setHang(name, hangFirstN),
    webhooks: (name) => webhooks.deliveries(name),
    waitForWebhook: (name, count = 1, timeoutMs = 5000) => webhooks.waitFor(name, count, timeoutMs),
    requestLog: () => [...log],
    arrivals: (pathPrefix) => arrivedAt.filter((_, i) => log[i]!.path.startsWith(pathPrefix)),
    openRequests: (pathPrefix = '/') => [...open].filter(([path]) => path!.startsWith(pathPrefix)).length,
    async close() {
      if (closed) return;
      closed = true;
      delays.cancelAll();
      webhooks.rejectAll('sandbox web closed');
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}
