/**
 * Hand-made pages for tests of ranking by meaning: one page answers a need in
 * its own words, and decoys share the query's words but are about something
 * else. Served by tests with addPage; each carries a published date.
 */

export interface MeaningPage {
  path: string;
  title: string;
  published: string;
  author: string;
  paragraphs: string[];
}

export const MEANING_PAGES: readonly MeaningPage[] = [
  {
    path: '/meaning/cardiac-arrest-first-aid',
    title: 'Cardiac arrest: first aid until the ambulance arrives',
    published: '2024-03-12T09:00:00Z',
    author: 'Dana Reyes',
    paragraphs: [
      'If someone suddenly goes down, is unresponsive and has no pulse, call the emergency number at once ' +
        'and ask for an ambulance and a defibrillator.',
      'Start chest compressions straight away: kneel beside the patient, place the heel of your hand in the ' +
        'centre of the chest and press hard and fast, about twice per second.',
      'Cardiopulmonary resuscitation keeps oxygenated blood flowing to the brain. If you are trained, give ' +
        'two rescue breaths after every thirty compressions.',
      'As soon as an automated external defibrillator arrives, switch it on and follow its spoken ' +
        'instructions while compressions continue.',
    ],
  },
  {
    path: '/meaning/bridge-collapse',
    title: 'Why the old river bridge collapsed',
    published: '2023-06-02T10:00:00Z',
    author: 'Sam Okafor',
    paragraphs: [
      'Engineers say the bridge collapsed because corroded steel cables could no longer carry the load of the deck.',
      'The bridge was the heartbeat of the town; the council now wants to revive the crossing with a new span.',
      'Nobody was on the deck when it fell down, and divers found no man in the river, only debris.',
      'The inspection report had warned that the bridge was not breathing properly: its expansion joints ' +
        'were jammed and could no longer move in the summer heat.',
    ],
  },
  {
    path: '/meaning/breathing-exercises-office',
    title: 'Breathing exercises for a calmer person at the office',
    published: '2025-01-20T08:00:00Z',
    author: 'Lee Park',
    paragraphs: [
      'What to do when a meeting overwhelms you: a person can slow down breathing to four seconds in and six ' +
        'seconds out.',
      'Box breathing, popular with athletes, is another exercise a man or woman can practise at the desk to ' +
        'revive a tired mind.',
      'Calm breathing reaches the unconscious mind and slows the heartbeat before a presentation, so a ' +
        'person speaks more clearly.',
    ],
  },
];

export function renderMeaningPage(page: MeaningPage): string {
  const body = page.paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${page.title}</title>
<meta name="author" content="${page.author}"><meta property="article:published_time" content="${page.published}">
<meta name="description" content="${page.paragraphs[0]}"></head>
<body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>${page.title}</h1>
${body}
</article><footer>© Sandbox news</footer></body></html>`;
}
