import { describe, expect, it } from 'vitest';
import { SiteScope } from './site-urls.js';

describe("SiteScope: discovery's site, by the one site rule (services/web-search/hosts.ts)", () => {
  it("holds base_url's site whatever the scheme or www label, and no other host or port", () => {
    const scope = new SiteScope(new URL('https://example.com/start'));
    expect(scope.contains(new URL('http://www.example.com/a'))).toBe(true);
    expect(scope.contains(new URL('https://www1.example.com/b'))).toBe(true);
    expect(scope.contains(new URL('https://docs.example.com/c'))).toBe(false);
    expect(scope.contains(new URL('https://example.com:8443/d'))).toBe(false);
  });

  it("takes in the port base_url redirects to on the same host, never another host's", () => {
    const scope = new SiteScope(new URL('http://127.0.0.1:8080/'));
    scope.acceptRedirectOf('https://127.0.0.1:8443/home');
    scope.acceptRedirectOf('https://elsewhere.example/');
    expect(scope.contains(new URL('https://127.0.0.1:8443/a'))).toBe(true);
    expect(scope.contains(new URL('http://127.0.0.1:8080/b'))).toBe(true);
    expect(scope.contains(new URL('https://elsewhere.example/c'))).toBe(false);
  });
});
