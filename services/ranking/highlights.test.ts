import { describe, expect, it } from 'vitest';
import { hashingEmbedder } from '../../plugins/neural/fixtures/hashing-embedder.js';
import { findHighlights } from './highlights.js';

const embedder = hashingEmbedder();

/** The API's promise: start_index counts code points, so slicing the code points gives the text back. */
function expectAnchored(content: string, highlight: { text: string; start_index: number }): void {
  const points = [...content];
  expect(points.slice(highlight.start_index, highlight.start_index + [...highlight.text].length).join('')).toBe(
    highlight.text,
  );
}

describe('findHighlights', () => {
  const content =
    'Quarry is a search service. It runs its engines in-process.\n\n' +
    'Embeddings run in a worker pool so the event loop never blocks. ' +
    'The local index keeps every page it has read, with its chunks and vectors.\n' +
    'Unrelated: the weather in Lisbon was sunny all week.';

  it('returns the sentences that answer the query, best first, each anchored at its start_index', async () => {
    const found = await findHighlights('where do embeddings run worker pool', content, 2, 'sentence', embedder);
    expect(found).toHaveLength(2);
    expect(found[0]!.text).toBe('Embeddings run in a worker pool so the event loop never blocks.');
    expect(found[0]!.relevance).toBeGreaterThan(found[1]!.relevance);
    for (const h of found) expectAnchored(content, h);
  });

  it('counts offsets in code points when the content has astral characters (emoji, CJK extension)', async () => {
    const astral = '🎉🎉 Party time is here. 𠀋 The 🚀 rocket launch happens at dawn. Birds sing.';
    const found = await findHighlights('rocket launch dawn', astral, 3, 'sentence', embedder);
    expect(found[0]!.text).toContain('rocket launch');
    for (const h of found) expectAnchored(astral, h);
    // UTF-16 index differs from the code point index here.
    expect(astral.indexOf(found[0]!.text)).not.toBe(found[0]!.start_index);
  });

  it('passages span up to three sentences and never overlap', async () => {
    const found = await findHighlights('event loop worker pool index chunks', content, 3, 'passage', embedder);
    expect(found.length).toBeGreaterThan(0);
    for (const h of found) expectAnchored(content, h);
    const ranges = found.map((h) => [h.start_index, h.start_index + [...h.text].length] as const);
    for (let i = 0; i < ranges.length; i++)
      for (let j = i + 1; j < ranges.length; j++)
        expect(ranges[i]![1] <= ranges[j]![0] || ranges[j]![1] <= ranges[i]![0]).toBe(true);
  });

  it('gives no more highlights than there are sentences, and none for content without words', async () => {
    expect(await findHighlights('anything', 'One sentence only.', 5, 'sentence', embedder)).toHaveLength(1);
    expect(await findHighlights('anything', '... --- !!!', 3, 'sentence', embedder)).toEqual([]);
  });
});
