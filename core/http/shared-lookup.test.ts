import { afterEach, expect, it, vi } from 'vitest';

// A resolver the test answers by hand, counting the lookups it was asked for.
const pending: Array<{
  hostname: string;
  answer: (error: Error | null, addresses: Array<{ address: string; family: number }>) => void;
}> = [];
vi.mock('node:dns', () => ({
  lookup: (hostname: string, _options: unknown, answer: (typeof pending)[number]['answer']) =>
    void pending.push({ hostname, answer }),
}));

afterEach(() => void (pending.length = 0));

it('makes one DNS lookup for asks of one host that overlap, and a new one once it is answered', async () => {
  const { resolveAll } = await import('./guarded-connector.js');
  const asks = Array.from({ length: 50 }, () => resolveAll('cdn.example', 5000));
  const other = resolveAll('other.example', 5000);
  expect(pending.map((p) => p.hostname)).toEqual(['cdn.example', 'other.example']);
  pending[0]!.answer(null, [{ address: '93.184.216.34', family: 4 }]);
  for (const answer of await Promise.all(asks)) expect(answer).toEqual([{ address: '93.184.216.34', family: 4 }]);
  pending[1]!.answer(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
  await expect(other).rejects.toMatchObject({ code: 'ENOTFOUND' });

  const later = resolveAll('cdn.example', 5000);
  expect(pending.map((p) => p.hostname)).toEqual(['cdn.example', 'other.example', 'cdn.example']);
  pending[2]!.answer(null, [{ address: '93.184.216.35', family: 4 }]);
  await expect(later).resolves.toEqual([{ address: '93.184.216.35', family: 4 }]);
});

it('shares a failed lookup with the asks that overlapped it, connect-time lookups included', async () => {
  const { guardedLookup, resolveAll } = await import('./guarded-connector.js');
  const guard = { assertAllowed: () => undefined } as never;
  const connecting = new Promise((resolve) =>
    guardedLookup(guard, '443')('slow.example', {}, (error) => resolve(error)),
  );
  const checking = resolveAll('slow.example', 5000);
  expect(pending).toHaveLength(1);
  pending[0]!.answer(Object.assign(new Error('try again'), { code: 'EAI_AGAIN' }), []);
  await expect(checking).rejects.toMatchObject({ code: 'EAI_AGAIN' });
  await expect(connecting).resolves.toMatchObject({ code: 'EAI_AGAIN' });
});
