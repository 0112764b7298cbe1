// CI only: a local search engine for the container smoke test. Serves one recorded Crossref answer
// (engines/crossref/fixtures/works-rows-2.json, mounted at /fixture/works.json) for every
// GET /works?query=…, after SLOW_MS when the query holds "slow" (so a job is still running when
// the test kills its container). Logs each request, which the test reads to know the engine was called.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answer = readFileSync(process.env.FIXTURE ?? '/fixture/works.json');
const slowMs = Number(process.env.SLOW_MS ?? 4000);
const port = Number(process.env.PORT ?? 8090);

createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://engine');
  console.log(`engine request: ${request.method} ${url.pathname}${url.search}`);
  if (url.pathname !== '/works') {
    response.writeHead(404).end();
    return;
  }
  const delay = (url.searchParams.get('query') ?? '').includes('slow') ? slowMs : 0;
  setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(answer), delay);
}).listen(port, '0.0.0.0', () => console.log(`engine listening on ${port}`));
