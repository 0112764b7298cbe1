import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../core/logger.js';
import { CorpusStore } from './corpus-store.js';
import { chunksSchema } from './schema.js';
import type { StoredSourceInput } from './types.js';

const DIMENSIONS = 8;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-corpora-'));
  dirs.push(dir);
  return dir;
}

const unit = (seed: number) => {
  const v = Float32Array.from({ length: DIMENSIONS }, (_, d) => Math.sin(seed * 3.3 + d));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

function source(url: string, texts: string[], seed: number): StoredSourceInput {
  let offset = 0;
  const content = texts.join(' ');
  return {
    url,
    title: `Page ${seed}`,
    content,
    summary: texts[0]!,
    word_count: content.split(' ').length,
    engine: 'test',
    scraped_at: '2025-01-01T00:00:00.000Z',
    relevance_score: 0.5,
    query: 'q',
    chunks: texts.map((text, i) => {
      const chunk = { text, start: offset, end: offset + text.length, tokens: 10, vector: unit(seed * 10 + i) };
      offset += text.length + 1;
      return chunk;
    }),
  };
}

const newCorpus = {
  topic: 'lighthouses',
  parameters: { depth: 'quick' },
  queries_planned: ['lighthouses overview'],
  embedding_model: 'test/model',
  dimensions: DIMENSIONS,
};

describe('the corpus store', () => {
  it('keeps a corpus and its sources and chunks, searches them by text and by vector, and deletes them', async () => {
    const dir = tempDir();
    let store = await CorpusStore.open({ dir, logger: silentLogger() });
    const record = await store.create(newCorpus);
    expect(record).toMatchObject({ status: 'building', topic: 'lighthouses', owner: { pid: process.pid } });
    const stored = await store.addSources(record.corpus_id, [
      source(
        'https://a.example/',
        ['The Pharos of Alexandria was one of the seven wonders.', 'Its light guided ships into the harbour.'],
        1,
      ),
      source(
        'https://b.example/',
        ['Fresnel lenses concentrate the lamp into a beam.', 'They were invented in 1822.'],
        2,
      ),
    ]);
    expect(stored.map((s) => s.chunk_count)).toEqual([2, 2]);
    expect(stored[0]!.source_id).toMatch(/^src_[a-f0-9]{12}$/);
    await store.update(record.corpus_id, (r) => ({ ...r, status: 'complete', owner: null }));

    const byText = await store.search(record.corpus_id, { text: 'Fresnel lens beam', limit: 5 });
    expect(byText[0]).toMatchObject({ url: 'https://b.example/', chunk_index: 0, text_rank: 1, vector_rank: null });
    const byVector = await store.search(record.corpus_id, { vector: unit(11), limit: 2 });
    expect(byVector[0]).toMatchObject({ url: 'https://a.example/', chunk_index: 1, vector_rank: 1 });
    expect(byVector[0]!.vector).toHaveLength(DIMENSIONS);
    const content = (await store.sources(record.corpus_id, { withContent: true })).find(
      (s) => s.url === 'https://a.example/',
    )!.content;
    expect(content.slice(byVector[0]!.start, byVector[0]!.end)).toBe('Its light guided ships into the harbour.');
    expect((await store.sourceVectors(record.corpus_id)).size).toBe(2);

    // Durable: a new store on the same folder sees the same corpus.
    await store.close();
    store = await CorpusStore.open({ dir, logger: silentLogger() });
    expect((await store.require(record.corpus_id)).status).toBe('complete');
    expect(await store.counts(record.corpus_id)).toEqual({ sources: 2, chunks: 4 });
    expect(await store.delete(record.corpus_id)).toEqual({ sources: 2, chunks: 4 });
    expect(await store.get(record.corpus_id)).toBeNull();
    await expect(store.require(record.corpus_id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await (await connect(dir)).tableNames()).toEqual(['corpora']);
    await store.close();
  });

  it('on open, marks builds whose process is gone incomplete, and drops tables left without a record', async () => {
    const dir = tempDir();
    const first = await CorpusStore.open({ dir, logger: silentLogger() });
    const ownBuild = await first.create(newCorpus);
    const deadBuild = await first.create(newCorpus);
    // A process that has exited: its pid is free again (the chance it was reused meanwhile is negligible).
    const deadPid = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    await first.update(deadBuild.corpus_id, (r) => ({ ...r, owner: { ...r.owner!, pid: Number(deadPid) } }));
    await first.close();
    const db = await connect(dir);
    await db.createEmptyTable('corpus_00000000000000000000_chunks', chunksSchema(DIMENSIONS));

    const second = await CorpusStore.open({ dir, logger: silentLogger() });
    for (const id of [ownBuild.corpus_id, deadBuild.corpus_id]) {
      const record = await second.require(id);
      expect(record.status, id).toBe('incomplete');
      expect(record.status_reason).toMatch(/interrupted/);
    }
    expect(await db.tableNames()).not.toContain('corpus_00000000000000000000_chunks');
    const claimed = await second.claim(ownBuild.corpus_id);
    expect(claimed).toMatchObject({ status: 'building', owner: second.owner });
    await expect(second.claim(ownBuild.corpus_id)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await second.close();
  });
});
