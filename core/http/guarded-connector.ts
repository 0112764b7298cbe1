/**
 * An undici connector that applies the address guard at connect time, after
 * DNS resolution: every connection (first request, each redirect hop, each
 * retry) is checked against the addresses it will actually reach, so a
 * public name that resolves to a private address is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import type { AddressGuard } from './address-guard.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createGuardedConnector(
  guard: AddressGuard,
  options: { connectTimeoutMs?: number } = {},
): buildConnector.connector {
  // net.connect's lookup does not know the port, and allowHosts entries can name
  // one, so keep one base connector per port (few in practice: 80, 443, tests).
  const byPort = new Map<string, buildConnector.connector>();
  const connectorFor = (port: string): buildConnector.connector => {
    let connector = byPort.get(port);
    if (!connector) {
      connector = buildConnector({
        lookup: guardedLookup(guard, port) as never,
        ...(options.connectTimeoutMs ? { timeout: options.connectTimeoutMs } : {}),
      });
      byPort.set(port, connector);
    }
    return connector;
  };
  return (connectOptions, callback) => {
    const port = connectOptions.port || (connectOptions.protocol === 'https:' ? '443' : '80');
    // net.connect skips lookup for literal IPs, so check those here.
    if (isIP(connectOptions.hostname)) {
      try {
        guard.assertAllowed(connectOptions.hostname, port, connectOptions.hostname);
      } catch (refusal) {
        callback(refusal as Error, null);
        return;
      }
    }
    connectorFor(port)(connectOptions, callback);
  };
}

/** dns.lookup that resolves every address and refuses the connection if any of them is blocked. */
export function guardedLookup(guard: AddressGuard, port: string) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0) || 0;
    lookupAll(hostname, family).then(
      (addresses) => {
        try {
          // All, not just the first: a name answering with one public and one
          // private address must not be a way in.
          for (const { address } of addresses) guard.assertAllowed(hostname, port, address);
        } catch (refusal) {
          return callback(refusal as NodeJS.ErrnoException, []);
        }
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

/**
 * Lookups in flight, by family and name. A rendered page asks for one host many times at once (its images), and
 * getaddrinfo runs on libuv's four threads: asks that overlap share one lookup (nothing is kept once it is answered).
 */
const inFlight = new Map<string, Promise<LookupAddress[]>>();

function lookupAll(hostname: string, family: number): Promise<LookupAddress[]> {
  const key = `${family}/${hostname}`;
  const shared = inFlight.get(key);
  if (shared) return shared;
  const lookup = new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true, family }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
  inFlight.set(key, lookup);
  const forget = (): void => void (inFlight.get(key) === lookup && inFlight.delete(key));
  lookup.then(forget, forget);
  // getaddrinfo gives up within the resolver's own timeouts; a lookup that never answers is not shared past this.
  setTimeout(forget, 30_000).unref();
  return lookup;
}

/**
 * Resolves a host name to all its addresses (for checks outside a connection).
 * getaddrinfo cannot be cancelled, so a resolver that never answers is given
 * up on after timeoutMs (ETIMEOUT) rather than holding the caller.
 */
export function resolveAll(hostname: string, timeoutMs: number): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(Object.assign(new Error(`no DNS answer for ${hostname} within ${timeoutMs} ms`), { code: 'ETIMEOUT' })),
      timeoutMs,
    );
    lookupAll(hostname, 0)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}
