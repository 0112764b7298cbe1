/**
 * Hand-made pages for the Verify API's tests: sentences that support,
 * contradict or qualify known claims, and pages on other subjects. Each
 * group is listed by its own search engine (a config-declared JSON engine
 * over /claims-find/<group>), so a test chooses the web a claim meets.
 */

export interface ClaimPage {
  path: string;
  title: string;
  paragraphs: string[];
}

export const CLAIM_PAGES: Record<string, ClaimPage[]> = {
  eiffel: [
    {
      path: '/claims/eiffel-history',
      title: 'History of the Eiffel Tower',
      paragraphs: [
        "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris.",
        "Gustave Eiffel's company designed and built the wrought-iron lattice tower over two years.",
        'The tower is 330 metres tall, about the same height as an 81-storey building.',
        'It is repainted every seven years with about sixty tonnes of brown paint.',
      ],
    },
    {
      path: '/claims/eiffel-records',
      title: 'Eiffel Tower records and visitors',
      paragraphs: [
        'Construction of the Eiffel Tower was completed in March 1889, after two years of work by some three ' +
          'hundred workers.',
        'At 330 metres, the Eiffel Tower was the tallest structure in the world until the Chrysler Building ' +
          'was finished in 1930.',
        'Nearly seven million people visit the monument every year, most of them from abroad.',
      ],
    },
  ],
  wall: [
    {
      path: '/claims/great-wall-moon',
      title: 'Can you see the Great Wall of China from space?',
      paragraphs: [
        'The Great Wall of China is not visible from the Moon with the naked eye, despite the popular belief.',
        'Astronauts who walked on the Moon have said that no human-made structure on Earth can be seen from ' +
          'there without aid.',
        'Even from low Earth orbit the wall is very hard to make out, because it is narrow and close in ' +
          'colour to the land around it.',
      ],
    },
    {
      path: '/claims/great-wall-history',
      title: 'A short history of the Great Wall',
      paragraphs: [
        'The Great Wall of China is a series of fortifications built across northern China over many centuries.',
        'Most of the wall that stands today was built during the Ming dynasty, between the fourteenth and ' +
          'seventeenth centuries.',
        'The claim that the Great Wall of China can be seen from the Moon with the naked eye is a myth.',
      ],
    },
  ],
  seaice: [
    {
      path: '/claims/arctic-2013',
      title: 'Arctic sea ice in 2013',
      paragraphs: [
        'Arctic sea ice grew in 2013 compared with the record low of 2012, but the long-term trend is still declining.',
        'Scientists measure the extent of the ice from satellites every day of the year.',
      ],
    },
    {
      path: '/claims/arctic-records',
      title: 'Satellite records of Arctic sea ice',
      paragraphs: [
        'Satellite records show that Arctic sea ice grew in 2013 after the exceptional minimum of the year before.',
        'The summer minimum has been measured continuously since 1979 by polar-orbiting satellites.',
      ],
    },
  ],
};

/** Pages on other subjects (the sandbox's topic pages) for claims nobody wrote about. */
export const UNRELATED_PAGE_PATHS = ['/pages/topic/sourdough-bread-baking', '/pages/topic/kubernetes-pod-scheduling'];

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderClaimPage(page: ClaimPage): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>${escapeHtml(page.title)}</h1>
${page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</article><footer>Hand-made test page.</footer></body></html>`;
}

/** The config of one JSON engine per group, listing that group's pages whatever the query. */
export function claimEngines(webUrl: string, groups: string[]) {
  return groups.map((group) => ({
    type: 'json' as const,
    id: `find_${group}`,
    name: `Claim pages: ${group}`,
    urlTemplate: `${webUrl}/claims-find/${group}?q={query}`,
    results: 'items',
    fields: { url: 'link', title: 'name', snippet: 'summary' },
  }));
}

/** Serves every claim page and every group's engine answer on the sandbox web. */
export function serveClaimWeb(
  web: { url: string; addPage(path: string, body: string, opts?: { contentType?: string; delayMs?: number }): string },
  opts: { delayMs?: number } = {},
): void {
  for (const [group, pages] of Object.entries(CLAIM_PAGES)) {
    for (const page of pages)
      web.addPage(page.path, renderClaimPage(page), opts.delayMs ? { delayMs: opts.delayMs } : {});
    const items = pages.map((p) => ({ link: `${web.url}${p.path}`, name: p.title, summary: p.paragraphs[0] }));
    web.addPage(`/claims-find/${group}`, JSON.stringify({ items }), { contentType: 'application/json' });
  }
  const unrelated = UNRELATED_PAGE_PATHS.map((path) => ({
    link: `${web.url}${path}`,
    name: path.split('/').pop(),
    summary: 'A page on another subject.',
  }));
  web.addPage('/claims-find/unrelated', JSON.stringify({ items: unrelated }), { contentType: 'application/json' });
}

export const CLAIM_GROUPS = [...Object.keys(CLAIM_PAGES), 'unrelated'];
