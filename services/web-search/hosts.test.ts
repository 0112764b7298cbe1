import { describe, expect, it } from 'vitest';
import { bareHost, hostOf, sameSite, siteKey, startsWithWww } from './hosts.js';

describe('hosts: the one host and site rule', () => {
  it('compares a host lower-case, without a trailing dot or a www label', () => {
    expect(hostOf('https://www.bbc.co.uk/news/world')).toBe('bbc.co.uk');
    expect(hostOf('https://WWW.Reuters.COM./world/')).toBe('reuters.com');
    // CBN serves its site under www1.
    expect(hostOf('https://www1.cbn.com/cbnnews/world')).toBe('cbn.com');
    expect(hostOf('http://www2.hm.com/en_gb/index.html')).toBe('hm.com');
    expect(bareHost('WWW.Example.com.')).toBe('example.com');
  });

  it('keeps every other label: m., en., www-like names that are no www label', () => {
    expect(hostOf('https://m.facebook.com/somebody')).toBe('m.facebook.com');
    expect(hostOf('https://en.wikipedia.org/wiki/Sourdough')).toBe('en.wikipedia.org');
    expect(hostOf('https://wwwhatsnew.com/')).toBe('wwwhatsnew.com');
    expect(hostOf('https://news.www.example.com/')).toBe('news.www.example.com');
    expect(startsWithWww('wwwhatsnew.com')).toBe(false);
    expect(startsWithWww('WWW3.example.org')).toBe(true);
  });

  it('leaves the port out of a host and in a site', () => {
    expect(hostOf('http://127.0.0.1:8080/a')).toBe('127.0.0.1');
    expect(siteKey('http://127.0.0.1:8080/a')).toBe('127.0.0.1:8080');
    expect(siteKey('https://www.example.com:443/a')).toBe('example.com');
    expect(siteKey('http://[::1]:3000/')).toBe('[::1]:3000');
  });

  it('says two URLs are on one site whatever their scheme, www label, path or query', () => {
    expect(sameSite('http://example.com/a', 'https://www.example.com/b?c=d')).toBe(true);
    expect(sameSite(new URL('https://www1.cbn.com/x'), 'https://cbn.com/')).toBe(true);
    expect(sameSite('http://127.0.0.1:8080/', 'http://127.0.0.1:9090/')).toBe(false);
    expect(sameSite('https://docs.example.com/', 'https://example.com/')).toBe(false);
    expect(sameSite('https://m.example.com/', 'https://example.com/')).toBe(false);
  });

  it('finds no host or site in what is no URL', () => {
    expect(hostOf('example.com/a')).toBeNull();
    expect(siteKey('not a url')).toBeNull();
    expect(sameSite('not a url', 'not a url')).toBe(false);
  });
});
