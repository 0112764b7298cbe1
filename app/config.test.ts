import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

function dirWithConfig(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-config-'));
  writeFileSync(join(dir, 'quarry.config.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

describe('loadConfig', () => {
  it('has working defaults', () => {
    const { config, source } = loadConfig({ env: {}, cwd: mkdtempSync(join(tmpdir(), 'quarry-empty-')) });
    expect(source).toBeNull();
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8080);
    expect(config.outbound.allowPrivateNetwork).toBe(false);
    expect(config.outbound.respectRobots).toBe(true);
    expect(config.search.defaultEngines).toEqual(['duckduckgo', 'bing', 'wikipedia']);
  });

  it('layers defaults < file < environment < overrides', () => {
    const cwd = dirWithConfig({
      port: 9000,
      logLevel: 'warn',
      outbound: { timeoutMs: 2000 },
      engines: { searxng: { baseUrl: 'http://searx.lan:8888' } },
    });
    const { config, source } = loadConfig({
      env: { QUARRY_PORT: '9100', QUARRY_ALLOW_PRIVATE_NETWORK: 'true', REDIS_URL: 'redis://127.0.0.1:6390' },
      cwd,
      overrides: { logLevel: 'error' },
    });
    expect(source).toBe(join(cwd, 'quarry.config.json'));
    expect(config.port).toBe(9100);
    expect(config.logLevel).toBe('error');
    expect(config.outbound.timeoutMs).toBe(2000);
    expect(config.outbound.allowPrivateNetwork).toBe(true);
    expect(config.outbound.retries).toBe(1);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6390');
    expect(config.engines.searxng?.baseUrl).toBe('http://searx.lan:8888');
  });

  it('reads the file named by QUARRY_CONFIG and QUARRY_API_KEYS as a list', () => {
    const dir = dirWithConfig({ apiKeys: ['from-file-key-123'] });
    const { config } = loadConfig({
      env: { QUARRY_CONFIG: join(dir, 'quarry.config.json'), QUARRY_API_KEYS: 'key-one-123456, key-two-123456' },
      cwd: tmpdir(),
    });
    expect(config.apiKeys).toEqual(['key-one-123456', 'key-two-123456']);
  });

  it.each([
    [{ port: 'eighty' }, 'port'],
    [{ outbound: { timeoutMs: -5 } }, 'outbound.timeoutMs'],
    [{ engines: { 'Bad-Id': {} } }, 'engines'],
    [{ engines: { bing: { baseUrl: 'not a url' } } }, 'engines.bing.baseUrl'],
    [{ redisUrl: 'http://localhost' }, 'redisUrl'],
    [{ unknownSetting: true }, 'unknownSetting'],
  ])('rejects %j naming %s', (content, field) => {
    expect(() => loadConfig({ env: {}, cwd: dirWithConfig(content) })).toThrow(field);
  });

  it('rejects a bad environment value and a broken file clearly', () => {
    expect(() => loadConfig({ env: { QUARRY_PORT: 'abc' }, cwd: tmpdir() })).toThrow(/QUARRY_PORT/);
    expect(() => loadConfig({ env: { QUARRY_ALLOW_PRIVATE_NETWORK: 'maybe' }, cwd: tmpdir() })).toThrow(
      /QUARRY_ALLOW_PRIVATE_NETWORK/,
    );
    expect(() => loadConfig({ env: {}, cwd: dirWithConfig('{ not json') })).toThrow(/not valid JSON/);
    expect(() => loadConfig({ env: { QUARRY_CONFIG: '/nonexistent/quarry.json' }, cwd: tmpdir() })).toThrow(
      /does not exist/,
    );
  });
});
