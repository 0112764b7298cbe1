import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateSecret } from './secrets.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('loadOrCreateSecret', () => {
  it('creates the secret with mode 0600', () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-secret-'));
    const secret = loadOrCreateSecret(dir, 'api-key', 'qk_');
    expect(secret.created).toBe(true);
    expect(statSync(secret.path).mode & 0o777).toBe(0o600);
    expect(secret.exposedMode).toBeUndefined();
  });

  it('tightens an existing file others could read to 0600 and says it was exposed', () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-secret-'));
    const path = join(dir, 'api-key');
    writeFileSync(path, 'qk_0123456789abcdefghij\n');
    chmodSync(path, 0o644);
    const secret = loadOrCreateSecret(dir, 'api-key', 'qk_');
    expect(secret).toMatchObject({ value: 'qk_0123456789abcdefghij', created: false, exposedMode: 0o644 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecret(dir, 'api-key', 'qk_').exposedMode).toBeUndefined();
  });
});
