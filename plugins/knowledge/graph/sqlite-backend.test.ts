import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { graphBackendConformance } from './fixtures/conformance.js';
import { SqliteGraphBackend } from './sqlite-backend.js';

const dirs: string[] = [];
let current = '';
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

graphBackendConformance('SQLite', {
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-graph-'));
    dirs.push(dir);
    current = join(dir, 'knowledge-graph.sqlite');
    return SqliteGraphBackend.open(current);
  },
  reopen: () => SqliteGraphBackend.open(current),
});
