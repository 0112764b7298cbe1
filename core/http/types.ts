/** Shapes of the outbound HTTP layer: one policy for every request that leaves the process. */

export type OutboundPurpose = 'engine' | 'page' | 'webhook' | 'robots' | 'model';

export interface OutboundRequest {
  url: string;
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string;
  /** What the request is for: robots.txt is only checked for 'page'. */
  purpose: OutboundPurpose;
  /** Overrides the configured timeout for this request. */
  timeoutMs?: number;
  /** Overrides the configured retry count (retries happen on network errors and 502/503/504). */
  retries?: number;
  /** Overrides the configured response size cap. */
  maxBytes?: number;
  /**
   * False answers a redirect as it is instead of following it (webhooks: a POST must not turn into a GET elsewhere).
   */
  followRedirects?: boolean;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Body decoded as text (charset from Content-Type or <meta>, default UTF-8). */
  body: string;
  /** Raw bytes of the body. */
  bytes: Uint8Array;
  /** Final URL after redirects. */
  url: string;
  elapsedMs: number;
}

export interface OutboundPolicy {
  userAgent: string;
  timeoutMs: number;
  retries: number;
  perHostConcurrency: number;
  maxResponseBytes: number;
  maxRedirects: number;
  /** http(s) proxy URL for every outbound request, or null. */
  proxy: string | null;
  respectRobots: boolean;
  /** Allow private, loopback and link-local addresses everywhere. */
  allowPrivateNetwork: boolean;
  /** host:port pairs (or bare hosts) allowed even when private. */
  allowHosts: string[];
}
