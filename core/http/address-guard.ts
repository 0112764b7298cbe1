/**
 * Refuses private, loopback, link-local and other non-public addresses
 * unless the policy allows them everywhere or for a listed host[:port].
 */
import { AppError } from '../errors.js';
import { classifyAddress, parseIp } from './address-ranges.js';
import type { OutboundPolicy } from './types.js';

/** True for a public address; every special IPv4/IPv6 range is refused (core/http/address-ranges.ts). */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).public;
}

/** The non-public range an address falls in ('loopback', 'private', ...), or null when public or not an IP. */
export function addressRange(ip: string): string | null {
  if (parseIp(ip) === null) return null;
  const verdict = classifyAddress(ip);
  return verdict.public ? null : verdict.range;
}

interface AllowEntry {
  host: string;
  /** null: any port. */
  port: string | null;
}

export class AddressGuard {
  private readonly allowed: AllowEntry[];

  constructor(private readonly policy: Pick<OutboundPolicy, 'allowPrivateNetwork' | 'allowHosts'>) {
    this.allowed = policy.allowHosts.map(parseAllowEntry);
  }

  /** True when the policy lets hostname:port reach non-public addresses. */
  isExempt(hostname: string, port: string): boolean {
    if (this.policy.allowPrivateNetwork) return true;
    const host = normalizeHost(hostname);
    return this.allowed.some((entry) => entry.host === host && (entry.port === null || entry.port === port));
  }

  /**
   * True when the URL's host:port is exempt, or is a literal public IP.
   * A host name needs DNS before it can be judged, so it gives false here
   * unless exempt; use the client's checkUrl() for a full answer.
   */
  isAllowedUrl(url: string | URL): boolean {
    let parsed: URL;
    try {
      parsed = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return false;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    const port = portOf(parsed);
    if (this.isExempt(parsed.hostname, port)) return true;
    return isPublicAddress(normalizeHost(parsed.hostname));
  }

  /**
   * True when the URL is refused whatever DNS answers: not http(s), a literal
   * non-public address, or a localhost name (RFC 6761) — unless exempt. A host
   * name needing DNS is not refused here (the connection check judges it).
   */
  refusesOutright(url: string | URL): boolean {
    let parsed: URL;
    try {
      parsed = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return true;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return true;
    if (this.isExempt(parsed.hostname, portOf(parsed))) return false;
    const host = normalizeHost(parsed.hostname);
    if (host === 'localhost' || host.endsWith('.localhost')) return true;
    return parseIp(host) !== null && !isPublicAddress(host);
  }

  /** Throws FORBIDDEN_ADDRESS when connecting to resolvedIp for hostname:port is not allowed. */
  assertAllowed(hostname: string, port: string | number, resolvedIp: string): void {
    const portText = String(port);
    if (isPublicAddress(resolvedIp) || this.isExempt(hostname, portText)) return;
    const host = normalizeHost(hostname);
    const range = addressRange(resolvedIp) ?? 'invalid';
    throw new AppError(
      'FORBIDDEN_ADDRESS',
      `refused to connect to ${host}:${portText} (${resolvedIp}, ${range}): non-public addresses are blocked; ` +
        'allow it with outbound.allowHosts (QUARRY_ALLOW_HOSTS) or outbound.allowPrivateNetwork ' +
        '(QUARRY_ALLOW_PRIVATE_NETWORK=true)',
      { details: { host, port: portText, address: resolvedIp, range } },
    );
  }
}

/** The URL's port, filling in the scheme's default. */
export function portOf(url: URL): string {
  if (url.port) return url.port;
  return url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80';
}

/** Lower-case, without IPv6 brackets or a trailing dot; IPs in canonical form. */
export function normalizeHost(hostname: string): string {
  const host = hostname
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  const ip = parseIp(host);
  return ip ? ip.toString() : host;
}

function parseAllowEntry(raw: string): AllowEntry {
  const entry = raw.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: normalizeHost(bracketed[1]!), port: bracketed[2] ?? null };
  // Two or more colons without brackets: a bare IPv6 address, no port.
  if ((entry.match(/:/g) ?? []).length > 1) return { host: normalizeHost(entry), port: null };
  const [host = entry, port] = entry.split(':');
  return { host: normalizeHost(host), port: port || null };
}
