import { describe, expect, it } from 'vitest';
import { classifyAddress } from './address-ranges.js';

describe('classifyAddress: every special range is refused', () => {
  it.each([
    // The case: [::127.0.0.1] normalises to ::7f00:1, which ipaddr.js calls unicast.
    ['::7f00:1', 'ipv4Compatible'],
    ['::127.0.0.1', 'loopback'],
    ['::a00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    ['::1:0:0:1', 'reserved'],
    ['::ffff:0:a00:1', 'rfc6145'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['64:ff9b:1::808:808', 'nat64Local'],
    ['2002:a00:1::1', '6to4'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:c0a8:101::1', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:db8::5efe:a00:1', 'reserved'],
    ['2a00:1450::5efe:a00:1', 'isatap'],
    ['2a00:1450::200:5efe:7f00:1', 'isatap'],
    ['4000::1', 'unallocated'],
    ['e000::1', 'unallocated'],
    ['100::1', 'discard'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['ff0e::1', 'multicast'],
    ['2001:2::1', 'benchmarking'],
    ['2001:10::1', 'deprecatedOrchid'],
    ['2001:20::1', 'orchid2'],
    ['3fff::1', 'reserved'],
    ['5f00::1', 'segmentRouting'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.1', 'reserved'],
    ['203.0.113.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['127.1', 'invalid'],
    ['localhost', 'invalid'],
  ])('%s is refused (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toMatchObject({ public: false, range });
  });

  it.each([
    ['8.8.8.8', undefined],
    ['[2606:4700:4700::1111]', undefined],
    ['::ffff:8.8.8.8', undefined],
    ['64:ff9b::808:808', '8.8.8.8'],
    ['2002:808:808::1', '8.8.8.8'],
    ['2a00:1450::5efe:808:808', '8.8.8.8'],
  ])('%s is public', (ip, embedded) => {
    const verdict = classifyAddress(ip);
    expect(verdict.public).toBe(true);
    expect(verdict.embedded).toBe(embedded);
  });
});
