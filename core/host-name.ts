/**
 * The host-name rule services/web-search/hosts.ts states, kept in the kernel so that core's domain
 * field and the engines (which import nothing above core) apply it too.
 */
const WWW_LABEL = /^www\d*\./;

/** Whether a host name begins with a www label ("www.", "www2."), which names no site of its own. */
export function startsWithWww(hostname: string): boolean {
  return WWW_LABEL.test(hostname.toLowerCase());
}

/** A host name (or a domain a caller wrote) as hosts are compared: lower case, no trailing dot, no www label. */
export function bareHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '').replace(WWW_LABEL, '');
}
