import { describe, expect, it } from 'vitest';
import { normalizeUrl } from './url-normalize.js';

describe('normalizeUrl', () => {
  it('treats http/https, www., host case, default ports, fragments and trailing slashes as the same page', () => {
    const variants = [
      'https://www.Example.com/docs/guide/',
      'http://example.com/docs/guide',
      'HTTPS://EXAMPLE.COM:443/docs/guide#install',
      'http://www.example.com:80/docs/guide//',
    ];
    const keys = new Set(variants.map(normalizeUrl));
    expect(keys).toEqual(new Set(['example.com/docs/guide']));
  });

  it('drops a numbered www label too, as every host comparison does (hosts.ts)', () => {
    expect(normalizeUrl('https://www1.cbn.com/cbnnews/')).toBe('cbn.com/cbnnews');
    expect(normalizeUrl('https://wwwhatsnew.com/a')).toBe('wwwhatsnew.com/a');
  });

  it('keeps the root slash and non-default ports', () => {
    expect(normalizeUrl('https://example.com')).toBe('example.com/');
    expect(normalizeUrl('https://example.com/')).toBe('example.com/');
    expect(normalizeUrl('http://example.com:8080/app/')).toBe('example.com:8080/app');
  });

  it('keeps the m. prefix: mobile hosts may serve other pages', () => {
    expect(normalizeUrl('https://m.example.com/a')).not.toBe(normalizeUrl('https://example.com/a'));
    expect(normalizeUrl('https://m.example.com/a')).toBe('m.example.com/a');
  });

  it('drops tracking parameters and sorts the rest', () => {
    const tracked =
      'https://news.example.org/story?utm_source=twitter&id=42&utm_medium=social&gclid=abc&fbclid=def&page=2&' +
      'mc_cid=1&mc_eid=2&ref_src=twsrc&igshid=x';
    expect(normalizeUrl(tracked)).toBe('news.example.org/story?id=42&page=2');
    expect(normalizeUrl('https://news.example.org/story?page=2&id=42')).toBe(normalizeUrl(tracked));
  });

  it('removes the query entirely when only tracking parameters were present', () => {
    expect(normalizeUrl('https://example.com/post?utm_campaign=spring&UTM_Source=x')).toBe('example.com/post');
    expect(normalizeUrl('https://example.com/post?')).toBe('example.com/post');
  });

  it('keeps parameters that change the page, including repeated ones, in a stable order', () => {
    expect(normalizeUrl('https://example.com/search?tag=b&q=rust&tag=a')).toBe('example.com/search?q=rust&tag=a&tag=b');
    expect(normalizeUrl('https://github.com/owner/repo/blob/x?ref=main')).toContain('ref=main');
  });

  it('decodes percent-escapes of unreserved characters only', () => {
    expect(normalizeUrl('https://example.com/%7Euser/a%2Db%5Fc')).toBe('example.com/~user/a-b_c');
    // An escaped slash is a different path from a real slash; it stays escaped (upper-case hex).
    expect(normalizeUrl('https://example.com/a%2fb')).toBe('example.com/a%2Fb');
    expect(normalizeUrl('https://example.com/caf%c3%a9')).toBe(normalizeUrl('https://example.com/café'));
  });

  it('encodes the same query value the same way', () => {
    expect(normalizeUrl('https://example.com/?q=a%20b')).toBe(normalizeUrl('https://example.com/?q=a+b'));
  });

  it('returns invalid and non-http URLs unchanged', () => {
    expect(normalizeUrl('not a url')).toBe('not a url');
    expect(normalizeUrl('')).toBe('');
    expect(normalizeUrl('mailto:Someone@Example.com')).toBe('mailto:Someone@Example.com');
    expect(normalizeUrl('ftp://example.com/file')).toBe('ftp://example.com/file');
  });
});
