// CI only: the container smoke test, run by .ci/container-smoke.sh once the image is built and loaded
// into the dockerd that DOCKER_HOST names. Runs the README's scale command with docker-compose v1 —
// `QUARRY_PUBLISH=127.0.0.1:P-P+1 docker-compose up -d --scale quarry=2` over compose.yaml and
// .ci/smoke/compose.smoke.yaml (one Redis, a local engine) — checks each replica took its own port of
// the range and turns healthy, searches through the local engine, then SIGKILLs the container running
// an async search job and checks that the other container finishes it. Every wait polls its condition
// under a deadline; any failure exits non-zero naming what failed. Cleanup is the caller's.
// Usage: SMOKE_PROJECT=<name> QUARRY_IMAGE=<image> DOCKER_HOST=<socket> node .ci/smoke/compose-smoke.mjs
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

const project = process.env.SMOKE_PROJECT ?? 'quarry-smoke';
const KEY = 'ci-smoke-key-0123456789';
/** A DOI in the recorded Crossref answer the local engine serves. */
const EXPECTED_URL = 'https://doi.org/10.1007/978-3-658-17671-6_18-1';
const REPLICAS = 2;
const composeFiles = ['-p', project, '-f', 'compose.yaml', '-f', '.ci/smoke/compose.smoke.yaml'];
let composeEnv = { ...process.env, QUARRY_API_KEYS: KEY };

const stamp = () => new Date().toISOString().slice(11, 19);
const say = (message) => process.stderr.write(`[${stamp()}] ${message}\n`);
class SmokeFailure extends Error {}
const fail = (message) => {
  throw new SmokeFailure(message);
};

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: composeEnv,
    ...options,
  }).trim();
}
const docker = (...args) => run('docker', args);

/** Whether nothing listens on 127.0.0.1:`port` now. */
const portIsFree = (port) =>
  new Promise((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** The first port of `count` consecutive free ones, for the README's port-range form of QUARRY_PUBLISH. */
async function freePortRange(count) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20000 + Math.floor(Math.random() * 40000);
    const ports = Array.from({ length: count }, (_, i) => first + i);
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return first;
  }
  fail(`no ${count} consecutive free ports on 127.0.0.1`);
}

/** Polls `probe` (truthy = done) every 500 ms until `seconds` have passed, then fails naming `what`. */
async function until(what, seconds, probe) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    try {
      const value = await probe();
      if (value) {
        say(`ok: ${what}`);
        return value;
      }
    } catch (error) {
      if (error instanceof SmokeFailure) throw error;
      last = error;
    }
    if (Date.now() > deadline)
      fail(`${what} (not within ${seconds} s${last ? `; last error: ${last.message ?? last}` : ''})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The containers docker-compose v1 made for `service`, by its labels (named <project>_<service>_<n>). */
function containersOf(service) {
  const out = docker(
    'ps',
    '-a',
    '--filter',
    `label=com.docker.compose.project=${project}`,
    '--filter',
    `label=com.docker.compose.service=${service}`,
    '--format',
    '{{.Names}}',
  );
  return out ? out.split('\n').sort() : [];
}

function describe(name) {
  const hostname = docker('inspect', '--format', '{{.Config.Hostname}}', name);
  const published = docker('port', name, '8080/tcp').split('\n')[0];
  return { name, hostname, published, url: `http://${published}` };
}

async function call(instance, path, body) {
  const response = await fetch(instance.url + path, {
    method: body ? 'POST' : 'GET',
    headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

const resultUrls = (answer) => (answer?.results ?? []).map((result) => result.url);

async function main() {
  const first = await freePortRange(REPLICAS);
  const range = `${first}-${first + REPLICAS - 1}`;
  composeEnv = { ...composeEnv, QUARRY_PUBLISH: `127.0.0.1:${range}` };
  say(`QUARRY_PUBLISH=127.0.0.1:${range} docker-compose up -d --scale quarry=${REPLICAS} (project ${project})`);
  run('docker-compose', [...composeFiles, 'up', '-d', '--scale', `quarry=${REPLICAS}`]);
  const names = containersOf('quarry');
  if (names.length !== REPLICAS)
    fail(`expected ${REPLICAS} quarry containers, found ${names.length}: ${names.join(', ')}`);
  const [redis] = containersOf('redis');
  const [engine] = containersOf('engine');
  if (!redis || !engine) fail('the redis or engine container is missing');
  const instances = names.map(describe);
  say(`quarry containers: ${instances.map((i) => `${i.name} (${i.url}, hostname ${i.hostname})`).join('; ')}`);
  // Each replica holds one host port of the range, none the same (what the README promises).
  const ports = instances.map((i) => Number(i.published.split(':').pop()));
  if (new Set(ports).size !== REPLICAS || ports.some((port) => port < first || port >= first + REPLICAS))
    fail(`the replicas' published ports ${ports.join(', ')} are not the range ${range}, one each`);

  for (const instance of instances) {
    // dockerd runs the image's HEALTHCHECK itself (the first probe after its 30 s interval).
    await until(`${instance.name} healthy (HEALTHCHECK on /healthz)`, 180, () => {
      const health = docker('inspect', '--format', '{{.State.Health.Status}}', instance.name);
      if (health === 'unhealthy') fail(`${instance.name} turned unhealthy`);
      return health === 'healthy';
    });
  }
  // A balancer on the compose network reaches every replica as quarry:8080 (docs/deploy.md says so).
  const replicaAddresses = instances
    .map((i) => docker('inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', i.name))
    .sort();
  const resolved = docker(
    'exec',
    engine,
    'node',
    '-e',
    "require('dns').lookup('quarry', { all: true }, (e, a) => { if (e) throw e; console.log(a.map((x) => " +
      "x.address).sort().join(' ')); })",
  );
  if (resolved !== replicaAddresses.join(' '))
    fail(`on the compose network "quarry" resolves to ${resolved}, not the replicas ${replicaAddresses.join(' ')}`);
  say(`ok: on the compose network "quarry" resolves to every replica (${resolved})`);
  const [a, b] = instances;

  say('search through the local engine');
  const search = await call(a, '/api/v1/search/', {
    query: 'soziale innovation',
    engines: ['local_works'],
    scrape_content: false,
    cache_ttl: 0,
  });
  if (search.status !== 200) fail(`search answered ${search.status}: ${JSON.stringify(search.body)}`);
  if (!resultUrls(search.body).includes(EXPECTED_URL))
    fail(`search results lack ${EXPECTED_URL}: ${JSON.stringify(search.body).slice(0, 2000)}`);
  say(`ok: search found ${search.body.results.length} results through local_works`);
  const viaSecond = await call(b, '/api/v1/search/engines');
  if (viaSecond.status !== 200 || !viaSecond.body?.engines?.local_works)
    fail(`the second container does not list local_works: ${viaSecond.status}`);

  say('async job, then SIGKILL of the container running it');
  const accepted = await call(a, '/api/v1/search/', {
    query: 'soziale innovation slow',
    engines: ['local_works'],
    scrape_content: false,
    cache_ttl: 0,
    timeout: 10,
    async_mode: true,
  });
  if (accepted.status !== 202 || !accepted.body?.request_id)
    fail(`async search answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  const id = accepted.body.request_id;
  // BullMQ keeps the worker's name (hostname:pid) on the job; a container's hostname names it.
  const processedBy = () => docker('exec', redis, 'redis-cli', 'HGET', `quarry:jobs-default:${id}`, 'pb');
  const runner = await until(`a container to take job ${id}`, 30, () =>
    instances.find((i) => processedBy().startsWith(`${i.hostname}:`)),
  );
  const survivor = runner === a ? b : a;
  await until('the job to call the local engine', 30, () =>
    docker('logs', engine).includes('query=soziale%20innovation%20slow'),
  );
  const before = await call(survivor, `/api/v1/search/jobs/${id}`);
  if (before.body?.status !== 'processing') fail(`before the kill the job is ${before.body?.status}, not processing`);
  docker('kill', '--signal', 'KILL', runner.name);
  const killedAt = Date.now();
  await until(
    `${runner.name} stopped`,
    20,
    () => docker('inspect', '--format', '{{.State.Running}}', runner.name) === 'false',
  );
  say(`killed ${runner.name}; waiting for ${survivor.name} to finish the job`);
  const job = await until('the job to finish on the surviving container', 120, async () => {
    const answer = await call(survivor, `/api/v1/search/jobs/${id}`);
    return ['completed', 'failed'].includes(answer.body?.status) && answer.body;
  });
  if (job.status !== 'completed') fail(`the job ended ${job.status}: ${JSON.stringify(job).slice(0, 2000)}`);
  if (JSON.stringify(job.result?.search_metadata?.engines_succeeded) !== '["local_works"]')
    fail(`the job's engines: ${JSON.stringify(job.result?.search_metadata)}`);
  if (!resultUrls(job.result).includes(EXPECTED_URL))
    fail(`the job's results lack ${EXPECTED_URL}: ${JSON.stringify(job).slice(0, 2000)}`);
  if (!processedBy().startsWith(`${survivor.hostname}:`))
    fail(`the job was last run by ${processedBy()}, not ${survivor.name}`);
  say(`ok: job ${id} completed on ${survivor.name} ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the SIGKILL`);
}

main().then(
  () => say('container smoke test passed'),
  (error) => {
    say(`FAILED: ${error instanceof SmokeFailure ? error.message : (error.stack ?? error)}`);
    process.exitCode = 1;
  },
);
