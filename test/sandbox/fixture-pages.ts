/**
 * Loads the pages the sandbox web serves from test/fixtures/sandbox: real
 * pages (some gzipped) plus hand-made ones, and the CAPTCHA block page.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** Pages written for the project rather than captured from the web; never used as stand-ins for result pages. */
const HAND_MADE_PAGES = new Set(['js-only']);

let cachedDir: string | undefined;

/** The fixture folder, found by walking up so it also resolves from a compiled copy under dist/. */
export function sandboxFixtureDir(): string {
  if (cachedDir) return cachedDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const candidate of [join(dir, 'fixtures', 'sandbox'), join(dir, 'test', 'fixtures', 'sandbox')]) {
      if (existsSync(join(candidate, 'PROVENANCE.md'))) return (cachedDir = candidate);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('sandbox web: test/fixtures/sandbox not found');
    dir = parent;
  }
}

/** Reads a file, gunzipping it when its name ends in .gz. */
export function readMaybeGzipped(file: string): Buffer {
  const raw = readFileSync(file);
  return file.endsWith('.gz') ? gunzipSync(raw) : raw;
}

export interface FixturePage {
  name: string;
  html: string;
  handMade: boolean;
}

let cachedPages: FixturePage[] | undefined;

/** Every page in test/fixtures/sandbox/pages, named by its file name without .html(.gz), sorted by name. */
export function fixturePages(): FixturePage[] {
  if (cachedPages) return cachedPages;
  const dir = join(sandboxFixtureDir(), 'pages');
  cachedPages = readdirSync(dir)
    .filter((file) => /\.html(\.gz)?$/.test(file))
    .sort()
    .map((file) => {
      const name = file.replace(/\.html(\.gz)?$/, '');
      return { name, html: readMaybeGzipped(join(dir, file)).toString('utf8'), handMade: HAND_MADE_PAGES.has(name) };
    });
  return cachedPages;
}

/** Real captured pages, the pool result links are served from. */
export function realPages(): FixturePage[] {
  return fixturePages().filter((page) => !page.handMade);
}

let cachedCaptcha: string | undefined;

/** Google's real "unusual traffic" reCAPTCHA block page. */
export function captchaPage(): string {
  cachedCaptcha ??= readFileSync(join(sandboxFixtureDir(), 'blocked', 'google-recaptcha-sorry.html'), 'utf8');
  return cachedCaptcha;
}
