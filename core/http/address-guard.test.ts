import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { AddressGuard, isPublicAddress } from './address-guard.js';

const strict = new AddressGuard({ allowPrivateNetwork: false, allowHosts: [] });

function refusal(fn: () => void): AppError | undefined {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  return undefined;
}

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'CGNAT 100.64/10'],
    ['100.127.255.255', 'CGNAT 100.64/10'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['febf::1', 'IPv6 link-local (end of fe80::/10)'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456::1', 'unique local fc00::/7'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['64:ff9b::a00:1', 'NAT64 embedding 10.0.0.1'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['not-an-ip', 'not an address'],
    ['127.1', 'short form'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts public %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );
});

describe('AddressGuard', () => {
  it('refuses a private address with FORBIDDEN_ADDRESS naming host and address', () => {
    const error = refusal(() => strict.assertAllowed('intranet.example', 80, '10.0.0.5'));
    expect(error).toBeInstanceOf(AppError);
    expect(error?.code).toBe('FORBIDDEN_ADDRESS');
    expect(error?.message).toContain('intranet.example');
    expect(error?.message).toContain('10.0.0.5');
    expect(error?.details).toMatchObject({
      host: 'intranet.example',
      port: '80',
      address: '10.0.0.5',
      range: 'private',
    });
  });

  it('lets public addresses through', () => {
    expect(refusal(() => strict.assertAllowed('example.com', 443, '93.184.216.34'))).toBeUndefined();
  });

  it('allows everything with allowPrivateNetwork', () => {
    const open = new AddressGuard({ allowPrivateNetwork: true, allowHosts: [] });
    expect(refusal(() => open.assertAllowed('localhost', 8080, '127.0.0.1'))).toBeUndefined();
    expect(open.isAllowedUrl('http://10.0.0.1/')).toBe(true);
  });

  it('allows a listed host:port and only that port', () => {
    const guard = new AddressGuard({ allowPrivateNetwork: false, allowHosts: ['127.0.0.1:8080', 'searx.lan'] });
    expect(refusal(() => guard.assertAllowed('127.0.0.1', 8080, '127.0.0.1'))).toBeUndefined();
    expect(refusal(() => guard.assertAllowed('127.0.0.1', 8081, '127.0.0.1'))?.code).toBe('FORBIDDEN_ADDRESS');
    expect(refusal(() => guard.assertAllowed('SEARX.LAN.', 1234, '192.168.1.9'))).toBeUndefined();
    expect(refusal(() => guard.assertAllowed('other.lan', 80, '192.168.1.9'))?.code).toBe('FORBIDDEN_ADDRESS');
    expect(guard.isAllowedUrl('http://127.0.0.1:8080/x')).toBe(true);
    expect(guard.isAllowedUrl('http://127.0.0.1:8081/x')).toBe(false);
    expect(guard.isAllowedUrl('http://searx.lan/')).toBe(true);
  });

  it('understands IPv6 allow entries with and without brackets', () => {
    const guard = new AddressGuard({ allowPrivateNetwork: false, allowHosts: ['[::1]:9000', 'fd00::7'] });
    expect(guard.isAllowedUrl('http://[::1]:9000/')).toBe(true);
    expect(guard.isAllowedUrl('http://[::1]:9001/')).toBe(false);
    expect(guard.isAllowedUrl('http://[fd00:0:0::7]:1/')).toBe(true);
  });

  it('judges literal-IP URLs without DNS', () => {
    expect(strict.isAllowedUrl('http://8.8.8.8/')).toBe(true);
    expect(strict.isAllowedUrl('http://127.0.0.1/')).toBe(false);
    expect(strict.isAllowedUrl('http://[::ffff:7f00:1]/')).toBe(false);
    expect(strict.isAllowedUrl('http://0x7f.1/')).toBe(false);
    expect(strict.isAllowedUrl('file:///etc/passwd')).toBe(false);
    expect(strict.isAllowedUrl('not a url')).toBe(false);
  });
});

describe('AddressGuard.refusesOutright', () => {
  const guard = new AddressGuard({ allowPrivateNetwork: false, allowHosts: ['127.0.0.1:8080'] });
  it.each([
    ['http://[::127.0.0.1]:8080/', true],
    ['http://[::7f00:1]/', true],
    ['http://127.0.0.1:9999/', true],
    ['http://localhost/', true],
    ['http://app.localhost/', true],
    ['javascript:alert(1)', true],
    ['data:text/html,x', true],
    ['not a url', true],
    ['http://127.0.0.1:8080/page', false],
    ['https://example.com/', false],
    ['http://8.8.8.8/', false],
  ])('%s → %s', (url, refused) => {
    expect(guard.refusesOutright(url)).toBe(refused);
  });
});
