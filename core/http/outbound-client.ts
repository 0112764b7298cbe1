/**
 * The one outbound HTTP client: every request that leaves the process goes
 * through fetch() here. It applies the address guard (at connect time, after
 * DNS, so on every redirect hop and retry too), robots.txt for page fetches,
 * one deadline per call, limited retries, a per-host concurrency limit, a
 * response size cap, the configured user agent and proxy.
 */
import { isIP } from 'node:net';
import { redactUrl } from './redact-url.js';
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { AppError, isAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { AddressGuard, normalizeHost, portOf } from './address-guard.js';
import { createGuardedConnector, resolveAll } from './guarded-connector.js';
import { HostLimiter } from './host-limiter.js';
import { readCappedBody, responseDecodedOnRead } from './response-body.js';
import { RobotsCache, type RobotsReader, type RobotsTxt } from './robots-cache.js';
import type { OutboundPolicy, OutboundRequest, OutboundResponse } from './types.js';
import { abortableSleep, startDeadline, type Deadline } from '../abort.js';

const RETRY_STATUSES = new Set([502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Sent only to the origin they were given for. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const ROBOTS_REQUEST = { timeoutMs: 5000, retries: 0, maxBytes: 512 * 1024 };
const MAX_BACKOFF_MS = 5000;
/** Schemes a browser page may load without touching the network. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:', 'javascript:']);
const NETWORK_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

interface Attempt {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  maxBytes: number;
}

type AttemptResult = Omit<OutboundResponse, 'url' | 'elapsedMs' | 'body'>;

export class OutboundClient {
  private readonly guard: AddressGuard;
  private readonly limiter: HostLimiter;
  private readonly robots: RobotsCache;
  private readonly dispatcher: Dispatcher;

  /** robotsReader reads robots.txt off the event loop; the app always hands in its worker pool's. */
  constructor(
    private readonly policy: OutboundPolicy,
    private readonly logger: Logger,
    robotsReader?: RobotsReader,
  ) {
    this.guard = new AddressGuard(policy);
    this.limiter = new HostLimiter(policy.perHostConcurrency);
    // Behind a proxy the proxy resolves names, so the connector only ever sees
    // the proxy itself; fetch() then checks each hop's resolved addresses instead.
    this.dispatcher = policy.proxy
      ? new ProxyAgent({ uri: policy.proxy, keepAliveTimeout: 10_000 })
      : new Agent({ connect: createGuardedConnector(this.guard), keepAliveTimeout: 10_000 });
    this.robots = new RobotsCache((robotsUrl) => this.fetch({ url: robotsUrl, purpose: 'robots', ...ROBOTS_REQUEST }), {
      reader: robotsReader,
    });
  }

  /**
   * Resolves the URL's host and applies the guard; throws FORBIDDEN_ADDRESS
   * when refused. Used by the browser's request interception.
   */
  async checkUrl(url: string): Promise<void> {
    const parsed = parseUrl(url);
    if (LOCAL_SCHEMES.has(parsed.protocol)) return;
    if (!NETWORK_SCHEMES.has(parsed.protocol)) {
      throw new AppError('FORBIDDEN_ADDRESS', `refused ${parsed.protocol} URL: only http(s) and ws(s) may be loaded`, {
        details: { url: parsed.href },
      });
    }
    await this.assertReachable(parsed);
  }

  async fetch(request: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const timeoutMs = request.timeoutMs ?? this.policy.timeoutMs;
    // One deadline for the whole call: robots.txt, queueing, retries and redirects included.
    const deadline = startDeadline(timeoutMs, request.signal);
    const signal = deadline.signal;
    let url = parseUrl(request.url);
    try {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new AppError('INVALID_INPUT', `only http and https URLs can be fetched, not ${url.protocol}`);
      }
      const credentials = takeCredentials(url);
      url = credentials.url;
      let attempt: Attempt = {
        method: request.method ?? 'GET',
        headers: {
          'user-agent': this.policy.userAgent,
          ...credentials.headers,
          ...lowerCaseKeys(request.headers ?? {}),
        },
        body: request.body,
        maxBytes: request.maxBytes ?? this.policy.maxResponseBytes,
      };
      const retries = request.retries ?? this.policy.retries;
      for (let hop = 0; ; hop++) {
        await this.precheck(url);
        if (request.purpose === 'page' && this.policy.respectRobots) await this.assertRobotsAllow(url, signal);
        const result = await this.fetchWithRetries(url, attempt, retries, signal);
        const location = result.headers.location;
        if (!REDIRECT_STATUSES.has(result.status) || !location || request.followRedirects === false) {
          return responseDecodedOnRead({
            ...result,
            url: url.href,
            elapsedMs: Math.round(performance.now() - started),
          });
        }
        if (hop >= this.policy.maxRedirects) {
          throw new AppError('UPSTREAM_FAILED', `more than ${this.policy.maxRedirects} redirects from ${request.url}`, {
            details: { url: request.url, lastUrl: url.href },
          });
        }
        const next = redirectTarget(location, url);
        attempt = redirectedAttempt(attempt, result.status, url, next);
        url = next;
      }
    } catch (error) {
      throw classifyFailure(error, request.signal, deadline, timeoutMs, url);
    } finally {
      // The body has been read: nothing of this call needs its deadline any more.
      deadline.dispose();
    }
  }

  /** Lets running requests finish for a moment, then cuts what is left so shutdown cannot hang. */
  async close(graceMs = 2000): Promise<void> {
    this.robots.clear();
    let timer: NodeJS.Timeout | undefined;
    const graceful = this.dispatcher.close().then(
      () => true,
      () => false,
    );
    const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
    const closed = await Promise.race([graceful, expired]);
    clearTimeout(timer);
    if (!closed)
      await this.dispatcher
        .destroy()
        .catch((error: unknown) => this.logger.debug({ err: error }, 'destroying the outbound dispatcher failed'));
  }

  /** Checks what can be checked before connecting: literal IPs, and every hop when a proxy hides DNS from us. */
  private async precheck(url: URL): Promise<void> {
    if (this.policy.proxy || isIP(normalizeHost(url.hostname))) await this.assertReachable(url);
  }

  private async assertReachable(url: URL): Promise<void> {
    const host = normalizeHost(url.hostname);
    const port = portOf(url);
    if (this.guard.isExempt(host, port)) return;
    if (isIP(host)) {
      this.guard.assertAllowed(host, port, host);
      return;
    }
    const addresses = await resolveAll(host, this.policy.timeoutMs).catch((error: NodeJS.ErrnoException) => {
      throw new AppError('UNREACHABLE', `cannot resolve ${host}: ${error.code ?? error.message}`, {
        details: { host, reason: 'dns' },
        cause: error,
      });
    });
    for (const { address } of addresses) this.guard.assertAllowed(host, port, address);
  }

  /**
   * Throws ROBOTS_DISALLOWED when robots.txt (when respected) refuses the page.
   * fetch() checks it itself for pages; a browser render checks it here first,
   * so both read the same rules.
   */
  async checkRobots(url: string, signal?: AbortSignal): Promise<void> {
    if (this.policy.respectRobots) await this.assertRobotsAllow(parseUrl(url), signal);
  }

  /** The robots.txt of url's origin from the same cache (one fetch per origin): discovery's Sitemap lines and rules. */
  robotsTxt(url: string, signal?: AbortSignal): Promise<RobotsTxt> {
    return this.robots.read(url, signal);
  }

  private async assertRobotsAllow(url: URL, signal?: AbortSignal): Promise<void> {
    if (await this.robots.isAllowed(url.href, signal)) return;
    this.logger.debug({ url: redactUrl(url.href) }, 'robots.txt disallows the page');
    throw new AppError('ROBOTS_DISALLOWED', `robots.txt of ${url.origin} disallows ${url.href} for Quarry`, {
      details: { url: url.href },
    });
  }

  private async fetchWithRetries(
    url: URL,
    attempt: Attempt,
    retries: number,
    signal: AbortSignal,
  ): Promise<AttemptResult> {
    for (let tried = 0; ; tried++) {
      try {
        const result = await this.fetchOnce(url, attempt, signal);
        if (!RETRY_STATUSES.has(result.status) || tried >= retries) return result;
        this.logger.debug({ url: redactUrl(url.href), status: result.status, tried }, 'retrying after a gateway error');
        await abortableSleep(backoffMs(tried, result.headers['retry-after']), signal);
      } catch (error) {
        const failure = guardRefusalIn(error) ?? error;
        // AppErrors (refused address, too large) are final; so is anything after an abort.
        if (isAppError(failure) || signal.aborted || tried >= retries) throw failure;
        this.logger.debug({ url: redactUrl(url.href), err: failure, tried }, 'retrying after a network error');
        await abortableSleep(backoffMs(tried, undefined), signal);
      }
    }
  }

  private async fetchOnce(url: URL, attempt: Attempt, signal: AbortSignal): Promise<AttemptResult> {
    const release = await this.limiter.acquire(url.hostname, signal);
    try {
      const response = await undiciFetch(url.href, {
        method: attempt.method,
        headers: attempt.headers,
        ...(attempt.body !== undefined ? { body: attempt.body } : {}),
        redirect: 'manual',
        signal,
        dispatcher: this.dispatcher,
      });
      const headers: Record<string, string> = Object.fromEntries(response.headers);
      const bytes = await readCappedBody(response.body, attempt.maxBytes, url.host);
      return { status: response.status, headers, bytes };
    } finally {
      release();
    }
  }
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new AppError('INVALID_INPUT', `not a valid URL: ${redactUrl(raw)}`);
  }
}

function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new AppError('UPSTREAM_FAILED', `${from.host} redirected to an invalid URL: ${location}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    // A refusal of the outbound policy (4xx), like a private address: the upstream answered, Quarry will not go there.
    throw new AppError(
      'FORBIDDEN_ADDRESS',
      `${from.host} redirected to a ${next.protocol} URL, which is refused: only http(s) is followed`,
    );
  }
  return next;
}

/**
 * fetch refuses URLs with user:password@, which webhook receivers commonly
 * use: the credentials travel as HTTP Basic authentication instead, as curl
 * sends them (and, like any credential header, not to another origin).
 */
function takeCredentials(url: URL): { url: URL; headers: Record<string, string> } {
  if (!url.username && !url.password) return { url, headers: {} };
  const userinfo = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return { url: bare, headers: { authorization: `Basic ${Buffer.from(userinfo).toString('base64')}` } };
}

/** The request for the next hop: 303 (and 301/302 after POST) become GET; credentials stay with their origin. */
function redirectedAttempt(attempt: Attempt, status: number, from: URL, to: URL): Attempt {
  const headers = { ...attempt.headers };
  if (from.origin !== to.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  const becomesGet =
    (status === 303 && attempt.method !== 'HEAD') || ((status === 301 || status === 302) && attempt.method === 'POST');
  if (!becomesGet) return { ...attempt, headers };
  delete headers['content-type'];
  delete headers['content-length'];
  return { ...attempt, method: 'GET', headers, body: undefined };
}

/** A guard refusal raised inside undici's connector arrives as the cause of its "fetch failed" TypeError. */
function guardRefusalIn(error: unknown): AppError | null {
  if (isAppError(error)) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return isAppError(cause) ? cause : null;
}

function classifyFailure(
  error: unknown,
  callerSignal: AbortSignal | undefined,
  deadline: Deadline,
  timeoutMs: number,
  url: URL,
): AppError {
  if (callerSignal?.aborted) return new AppError('CANCELLED', `request to ${url.host} cancelled`, { cause: error });
  const refusal = guardRefusalIn(error);
  if (refusal) return refusal;
  if (deadline.expired) {
    return new AppError('TIMEOUT', `no complete answer from ${url.host} within ${timeoutMs} ms`, {
      details: { url: url.href, timeoutMs },
      cause: error,
    });
  }
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  const reason = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new AppError('UNREACHABLE', `request to ${url.host} failed: ${reason}`, {
    details: { url: url.href, reason: 'network' },
    cause: error,
  });
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** 250 ms, 500 ms, 1 s ... or a short Retry-After in seconds; never more than MAX_BACKOFF_MS. */
function backoffMs(tried: number, retryAfter: string | undefined): number {
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : null;
  const wanted = seconds !== null ? seconds * 1000 : 250 * 2 ** tried;
  return Math.min(wanted, MAX_BACKOFF_MS);
}
