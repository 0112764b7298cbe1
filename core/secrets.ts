/**
 * Secrets generated on first start and kept in the data directory with file
 * mode 0600: the API key (when none is configured) and the webhook signing
 * secret.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StoredSecret {
  value: string;
  /** True when this call created it (so it can be shown once). */
  created: boolean;
  path: string;
  /**
   * The file's mode when it was found readable or writable by others (e.g.
   * 0o644); it has been set to 0600, and the secret may have been read.
   */
  exposedMode?: number;
}

/** `generate` makes a new value when none is stored (default: prefix + 24 random bytes, base64url). */
export function loadOrCreateSecret(
  dataDir: string,
  fileName: string,
  prefix = '',
  generate?: () => string,
): StoredSecret {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, fileName);
  if (existsSync(path)) {
    const value = readFileSync(path, 'utf8').trim();
    if (value.length >= 16) {
      const mode = statSync(path).mode & 0o777;
      if ((mode & 0o077) === 0) return { value, created: false, path };
      chmodSync(path, 0o600);
      return { value, created: false, path, exposedMode: mode };
    }
  }
  const value = generate ? generate() : `${prefix}${randomBytes(24).toString('base64url')}`;
  // 'wx' never overwrites a key another process wrote a moment ago.
  try {
    writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    writeFileSync(path, `${value}\n`, { mode: 0o600 });
  }
  chmodSync(path, 0o600);
  return { value: readFileSync(path, 'utf8').trim(), created: true, path };
}
