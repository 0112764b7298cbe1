import { expect, it, vi } from 'vitest';

// A resolver that never answers (a blackholed DNS server): getaddrinfo's callback never comes.
vi.mock('node:dns', () => ({ lookup: () => undefined }));

it('gives up on a DNS lookup that never answers at its time limit', async () => {
  const { resolveAll } = await import('./guarded-connector.js');
  const started = Date.now();
  await expect(resolveAll('never-answers.example', 300)).rejects.toMatchObject({ code: 'ETIMEOUT' });
  expect(Date.now() - started).toBeLessThan(1300);
});
