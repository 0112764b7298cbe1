// Installs what Quarry needs on a fresh clone, then builds it. Run by `npm start` and `npm test`
// (as their pre-scripts), so a newcomer needs no other step. Uses only Node built-ins.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const forTests = process.argv.includes('--for-tests');
const log = (message) => process.stderr.write(`[setup] ${message}\n`);
const run = (command) => execSync(command, { stdio: ['ignore', 'inherit', 'inherit'] });
const has = (command) => {
  try {
    execSync(`command -v ${command}`, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

function installNpmPackages() {
  const marker = 'node_modules/.package-lock.json';
  const stale =
    !existsSync(marker) ||
    (existsSync('package-lock.json') && statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs);
  if (!stale) return;
  if (!existsSync('package-lock.json')) {
    log('installing npm packages (npm install)');
    run('npm install --no-audit --no-fund');
    return;
  }
  log('installing npm packages (npm ci)');
  try {
    run('npm ci --no-audit --no-fund');
  } catch {
    // No fallback to `npm install`: that would quietly give a tree the lock file does not describe.
    log(
      "npm ci failed (see npm's message above). The lock file must be in sync with package.json: run `npm " +
        'install` once, commit package-lock.json, and try again.',
    );
    process.exit(1);
  }
}

function installSystemPackages() {
  const chromium =
    process.env.QUARRY_CHROMIUM_PATH ||
    ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));
  const wanted = [];
  if (!chromium) wanted.push('chromium');
  if (forTests && !has('redis-server')) wanted.push('redis-server');
  if (wanted.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? '' : has('sudo') ? 'sudo ' : null;
  if (!has('apt-get') || sudo === null) {
    log(
      `please install: ${wanted.join(', ')} (JavaScript rendering needs Chromium; tests need redis-server). Continuing without them.`,
    );
    return;
  }
  log(`installing ${wanted.join(', ')} with apt-get`);
  try {
    run(`${sudo}apt-get update -qq`);
    run(`DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq ${wanted.join(' ')}`);
  } catch {
    log(`could not install ${wanted.join(', ')}; features that need them will report themselves unavailable`);
  }
}

// The offline embedding model is generated from an npm package's word vectors (not shipped in git:
// models/ is ignored), so a fresh clone builds it here; the script skips work when it is current.
function buildEmbeddedModel() {
  // The script returns at once when the model is current (its version stamp matches).
  try {
    run('node scripts/build-embedded-model.mjs');
  } catch {
    log('could not build the embedded embedding model; semantic features will report themselves unavailable');
  }
}

installNpmPackages();
installSystemPackages();
buildEmbeddedModel();
log('building');
run('npm run build --silent');
