/** Where Chromium lives on this machine, if anywhere. We never download browsers. */
import { accessSync, constants } from 'node:fs';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export const CHROMIUM_MISSING_HINT =
  'Chromium is missing: install it (Debian/Ubuntu: apt-get install chromium) or point QUARRY_CHROMIUM_PATH ' +
  'at a Chromium/Chrome binary';

/**
 * An explicit path (from config) is used only if it is executable; a wrong
 * explicit path is not silently replaced by another browser. Without one:
 * QUARRY_CHROMIUM_PATH, then the usual Debian/Ubuntu locations.
 */
export function findChromium(explicit?: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (explicit) return isExecutable(explicit) ? explicit : null;
  const fromEnv = env.QUARRY_CHROMIUM_PATH;
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : null;
  return CHROMIUM_CANDIDATES.find(isExecutable) ?? null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
