import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { STORE_SCHEMAS, type Migration, type StoreSchema } from './schema-registry.js';
import { planUpgrade } from './upgrade-plan.js';

const step = (from: number): Migration => ({ from, to: from + 1, what: `step ${from}`, run: async () => undefined });
const three: StoreSchema = { name: 'records', holds: 'test', current: 3, migrations: [step(2), step(1)] };

describe('planUpgrade', () => {
  it('stamps a fresh store with the current version', () => {
    expect(planUpgrade(three, 'x', 'fresh')).toEqual({ action: 'stamp', from: 'fresh', version: 3 });
  });

  it('reads unmarked data as v0.1.0 (version 1) and runs every step from there, in order', () => {
    const plan = planUpgrade(three, 'x', 'unmarked');
    expect(plan.action).toBe('migrate');
    expect(plan.action === 'migrate' && plan.steps.map((s) => s.from)).toEqual([1, 2]);
  });

  it('runs only the steps above the version found, and nothing at the current one', () => {
    const plan = planUpgrade(three, 'x', 2);
    expect(plan.action === 'migrate' && plan.steps.map((s) => s.from)).toEqual([2]);
    expect(planUpgrade(three, 'x', 3)).toEqual({ action: 'current', version: 3 });
  });

  it('stamps unmarked v0.1.0 data of a store whose shape has not changed since (every store today)', () => {
    for (const schema of Object.values(STORE_SCHEMAS))
      expect(planUpgrade(schema, 'x', 'unmarked')).toEqual({ action: 'stamp', from: 1, version: 1 });
  });

  it('refuses newer data (UNAVAILABLE, reason STORED_DATA_TOO_NEW) naming store, location, both versions and the way out', () => {
    let error: unknown;
    try {
      planUpgrade(three, '/data/quarry.sqlite', 4);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAVAILABLE');
    expect((error as AppError).details).toEqual({
      reason: 'STORED_DATA_TOO_NEW',
      store: 'records',
      location: '/data/quarry.sqlite',
      found_version: 4,
      supported_version: 3,
    });
    expect((error as AppError).message).toMatch(/version 4.*up to version 3.*newer release.*quarry restore/);
  });

  it('fails loudly when a step is missing rather than skipping it', () => {
    expect(() => planUpgrade({ ...three, migrations: [step(1)] }, 'x', 1)).toThrow(/from version 2 to 3/);
  });
});
