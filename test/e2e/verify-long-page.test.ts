/**
 * Verify on one long real-looking page (navigation, cookie notice, other
 * stories, footer) over HTTP: a claim the page states only in part comes
 * back partially_true, its supporting evidence the page's sentences that
 * state the parts it does, and none of the boilerplate.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

const STATED = [
  'Marta Okafor has been the editor of the Lakeside Courier since 2015.',
  'The Courier, a weekly newspaper, was founded in 1921 by two printers from the valley.',
];

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>About us – Lakeside Courier</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a> <a href="/subscribe">Subscribe</a></nav>
<div class="cookie">We use cookies to improve your experience on our website. By continuing to browse you agree to our use of cookies.</div>
<main><h1>About us</h1>
<p>${STATED[0]}</p>
<p>Before joining the paper she reported on farming and local politics for a regional radio station.</p>
<p>${STATED[1]}</p>
<p>Our newsroom sits above the old bakery on Mill Street, next to the town library.</p>
<h2>Latest stories</h2>
<p>The harbour ferry between Oldport and Eastwick was relaunched by the city council on Monday.</p>
<p>Heavy rain is expected across the valley this weekend, with flood warnings for the lower fields.</p>
<p>The under-12 football team won the regional cup after a penalty shoot-out against Brookfield.</p>
</main>
<footer><p>Contact the newsroom: news@example.org. Advertise with us. Privacy policy. Terms of use.</p>
<p>© Lakeside Courier. All rights reserved. Registered in the valley since the paper first went to press.</p></footer>
</body></html>`;

let web: SandboxWeb;
let quarry: RunningQuarry;

beforeAll(async () => {
  web = await startSandboxWeb();
  web.addPage('/courier/about', PAGE);
  web.addPage(
    '/find-courier',
    JSON.stringify({
      items: [
        {
          link: `${web.url}/courier/about`,
          name: 'About us – Lakeside Courier',
          summary: 'About the Lakeside Courier',
        },
      ],
    }),
    { contentType: 'application/json' },
  );
  quarry = await startQuarry(web, {
    customEngines: [
      {
        type: 'json',
        id: 'find_courier',
        name: 'Courier pages',
        urlTemplate: `${web.url}/find-courier?q={query}`,
        results: 'items',
        fields: { url: 'link', title: 'name', snippet: 'summary' },
      },
    ],
    search: { defaultEngines: ['find_courier'] },
  });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await web?.close();
});

it('answers partially_true for a claim a long page states in part, with the sentences that state those parts', async () => {
  const res = await quarry.post('/api/v1/verify/claim', {
    claim:
      'Marta Okafor is the editor of the Lakeside Courier, a weekly newspaper founded in 1921 and still ' +
      'printed on Thursdays.',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const out = res.body;
  expect(out.verdict).toBe('partially_true');
  expect(out.sources_checked).toBe(1);
  expect(out.contradicting_evidence).toEqual([]);
  const snippets = out.supporting_evidence.map((e: { snippet: string }) => e.snippet);
  expect(snippets).toEqual(expect.arrayContaining(STATED));
  // Only sentences about the claim: no navigation, cookie notice, other stories or footer.
  for (const snippet of snippets) expect(PAGE).toContain(snippet);
  expect(snippets.filter((s: string) => !STATED.includes(s))).toEqual([]);
  expect(out.summary).toMatch(/^Partially true \(word-overlap rule, offline\): the pages state part of the claim/);
});
