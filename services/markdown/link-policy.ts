/** The link policy of markdown output, from the outbound policy: never link what the address guard refuses outright. */
import { AddressGuard } from '../../core/http/address-guard.js';
import type { OutboundPolicy } from '../../core/http/types.js';
import type { LinkPolicy } from './escape.js';

export type AddressPolicy = Pick<OutboundPolicy, 'allowPrivateNetwork' | 'allowHosts'>;

/** Refuses links to non-public literal addresses and localhost names unless the policy allows them. */
export function outboundLinkPolicy(policy: AddressPolicy = { allowPrivateNetwork: false, allowHosts: [] }): LinkPolicy {
  const guard = new AddressGuard(policy);
  return (url) => !guard.refusesOutright(url);
}
