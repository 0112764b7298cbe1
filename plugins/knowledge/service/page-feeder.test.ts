import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../core/logger.js';
import type { KnowledgeService } from './knowledge-service.js';
import { PageFeeder } from './page-feeder.js';

const page = (n: number) => ({
  url: `https://p.example/${n}`,
  title: `p${n}`,
  text: `Page ${n} `.repeat(40),
  publishedDate: null,
  author: null,
});

describe('page feeder', () => {
  it('extracts pages one at a time and drops what exceeds the bounded queue', async () => {
    const events = new EventEmitter();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const knowledge = {
      async extract(request: { source?: { url?: string | null } }) {
        seen.push(request.source!.url!);
        await gate;
        return { entities: [], edges: [], modelUsed: 'test', stored: true };
      },
    } as unknown as KnowledgeService;
    const feeder = new PageFeeder(events, knowledge, { maxQueue: 2, maxChars: 100 }, silentLogger());
    feeder.start();
    for (let n = 1; n <= 5; n++) events.emit('page.extracted', page(n));
    events.emit('page.extracted', { ...page(9), text: 'too short' });
    // Page 1 is being extracted; pages 2 and 3 wait; 4 and 5 are over the bound.
    expect(feeder.stats()).toEqual({ extracted: 0, dropped: 2, failed: 0, queued: 2 });
    release();
    await feeder.idle();
    expect(seen).toEqual(['https://p.example/1', 'https://p.example/2', 'https://p.example/3']);
    expect(feeder.stats()).toEqual({ extracted: 3, dropped: 2, failed: 0, queued: 0 });
    await feeder.stop();
    events.emit('page.extracted', page(7));
    expect(feeder.stats().queued).toBe(0);
  });
});
