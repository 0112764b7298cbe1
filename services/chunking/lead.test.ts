import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk-text.js';
import { readFixture } from './fixtures/expect-chunks.js';
import { chunkEach, chunkLead, chunkLeads, LEAD_CHARS_PER_TOKEN, leadOf } from './lead.js';
import type { ChunkOptions } from './types.js';

const SPEECH = readFixture('state_of_the_union.md');

describe('chunkLead', () => {
  const options = { strategy: 'recursive', maxTokens: 100, overlapTokens: 0 } as const;

  it('gives the first chunks of the whole text, offsets into the whole text', async () => {
    const whole = await chunkText(SPEECH, options);
    const lead = await chunkLead(SPEECH, options, 12);
    expect(lead).toHaveLength(12);
    expect(lead).toEqual(whole.slice(0, 12));
  });

  it('chunks only a bounded prefix of a long text', async () => {
    const seen: number[] = [];
    const chunker = (text: string, chunkOptions: Omit<ChunkOptions, 'embed'>) => {
      seen.push(text.length);
      return chunkText(text, chunkOptions);
    };
    const long = SPEECH.repeat(30);
    await chunkLead(long, options, 5, chunker);
    expect(seen).toEqual([LEAD_CHARS_PER_TOKEN * 100 * 6]);
  });

  it('reads a short text whole and keeps its last chunk', async () => {
    const short = SPEECH.slice(0, 2000);
    expect(await chunkLead(short, options, 50)).toEqual(await chunkText(short, options));
  });

  it('never cuts between the halves of a surrogate pair', () => {
    const text = 'a'.repeat(LEAD_CHARS_PER_TOKEN * 2 - 1) + '😀'.repeat(10);
    const lead = leadOf(text, 1, 1);
    expect(lead).toBe('a'.repeat(LEAD_CHARS_PER_TOKEN * 2 - 1));
  });
});

describe('chunkLeads', () => {
  const options = { strategy: 'recursive', maxTokens: 100, overlapTokens: 0 } as const;

  it('gives each text what chunkLead gives it, through one call of the batch chunker', async () => {
    const texts = [SPEECH, SPEECH.slice(0, 2000), SPEECH.repeat(3), SPEECH.slice(5000, 5400)];
    const calls: number[] = [];
    const chunked = await chunkLeads(texts, options, 8, (leads, chunkOptions) => {
      calls.push(leads.length);
      return chunkEach(leads, chunkOptions);
    });
    expect(calls).toEqual([texts.length]);
    expect(chunked).toEqual(await Promise.all(texts.map((text) => chunkLead(text, options, 8))));
  });
});
