import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { SemanticServices } from './semantic-services.js';

/** A logger whose lines are kept, to see what the caller was told. */
function recordingLogger(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, sink), lines };
}

describe('SemanticServices.embedderOrNull', () => {
  it("answers null, and says why on the caller's logger, when no embedding model can be had", async () => {
    // Shut down before any use: nothing is written to the data directory.
    const dataDir = join(tmpdir(), 'quarry-semantic-never-written');
    const semantic = new SemanticServices(
      { dataDir, embeddings: {}, vectorIndex: { enabled: false, retentionDays: 30, maxChunks: 1000 } },
      pino({ level: 'silent' }),
    );
    await semantic.close();
    const { logger, lines } = recordingLogger();
    await expect(semantic.embedder()).rejects.toThrow(/shut down/);
    expect(await semantic.embedderOrNull(logger)).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: 'no embedding model: ranking by words only',
      err: { message: expect.stringMatching(/shut down/) },
    });
  });
});
