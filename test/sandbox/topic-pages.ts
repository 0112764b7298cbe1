/**
 * Hand-made pages on distinct topics, served at /pages/topic/<slug>, so that
 * relevance tests can check a filter keeps on-topic pages and drops the rest.
 * Each topic keeps to its own vocabulary; no two topics share key terms.
 */

export interface TopicPage {
  slug: string;
  title: string;
  paragraphs: string[];
}

export const TOPIC_PAGES: readonly TopicPage[] = [
  {
    slug: 'sourdough-bread-baking',
    title: 'Sourdough bread baking at home',
    paragraphs: [
      'Sourdough bread is leavened by a starter: a culture of wild yeast and lactic acid bacteria kept alive ' +
        'with regular feedings of flour and water.',
      'A lively starter doubles within four to six hours of a feeding. Bakers mix it into the dough at its ' +
        'peak, when the bubbles are largest and the smell is pleasantly sour.',
      'Long, cool fermentation develops flavour. Many bakers shape the loaf in the evening, proof it ' +
        'overnight in the refrigerator and bake it in a preheated Dutch oven the next morning.',
      'Steam during the first twenty minutes of baking keeps the crust supple so the loaf can rise fully; ' +
        'removing the lid afterwards lets the crust brown and crackle.',
    ],
  },
  {
    slug: 'kubernetes-pod-scheduling',
    title: 'How Kubernetes schedules pods onto nodes',
    paragraphs: [
      'The Kubernetes scheduler watches for newly created pods that have no node assigned and picks a node ' +
        'for each of them.',
      'Scheduling happens in two phases: filtering removes nodes that cannot run the pod, for example ' +
        'because they lack the requested CPU or memory, and scoring ranks the remaining nodes.',
      'Node affinity, taints and tolerations let operators steer pods towards or away from particular nodes, ' +
        'while pod anti-affinity spreads replicas of a deployment across failure domains.',
      'When no node fits, the pod stays Pending and the scheduler may preempt lower-priority pods to make room for it.',
    ],
  },
  {
    slug: 'pacific-ocean-currents',
    title: 'Currents of the Pacific Ocean',
    paragraphs: [
      'The North Pacific Gyre is a clockwise loop of ocean currents formed by the Kuroshio, the North ' +
        'Pacific Current, the California Current and the North Equatorial Current.',
      'The Kuroshio carries warm tropical water north along the coast of Japan, much as the Gulf Stream does ' +
        'in the Atlantic.',
      'Off the coast of Peru, the cold Humboldt Current brings nutrient-rich water up from the deep, feeding ' +
        'one of the most productive fisheries in the world.',
      'During an El Niño, the trade winds weaken, warm surface water spreads east across the equatorial ' +
        'Pacific and the upwelling off South America falters.',
    ],
  },
  {
    slug: 'honeybee-colony-life',
    title: 'Life inside a honeybee colony',
    paragraphs: [
      'A honeybee colony has a single queen, tens of thousands of female worker bees and, in summer, a few ' +
        'hundred male drones.',
      'Workers change jobs as they age: young bees clean cells and nurse larvae, middle-aged bees build comb ' +
        'and guard the entrance, and the oldest bees forage for nectar and pollen.',
      'Foragers tell their sisters where flowers are with the waggle dance, whose angle gives the direction ' +
        'relative to the sun and whose duration gives the distance.',
      'Before winter the colony evicts its drones and clusters around the queen, shivering its flight ' +
        'muscles to keep the centre of the hive warm.',
    ],
  },
];

export function findTopicPage(slug: string): TopicPage | undefined {
  return TOPIC_PAGES.find((page) => page.slug === slug);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderTopicPage(page: TopicPage): string {
  const paragraphs = page.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
<meta name="description" content="${escapeHtml(page.paragraphs[0] ?? '')}">
</head>
<body>
<header><nav><a href="/">Home</a></nav></header>
<main>
<article>
<h1>${escapeHtml(page.title)}</h1>
${paragraphs}
</article>
</main>
<footer><p>Hand-made sandbox page.</p></footer>
</body>
</html>
`;
}
