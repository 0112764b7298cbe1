/**
 * One way to write an area's contract: every `*.contract.test.ts` starts its hosts through
 * contract-suite.ts (startContractHosts, describeContract), so each area is held to the same checks —
 * bounds on both sides, enum values, field tables, the same JSON over HTTP and MCP — and a new area
 * cannot grow a harness of its own. A source scan, like the architecture test's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';

const FOLDER = join(PACKAGE_ROOT, 'test', 'contract');
const contracts = readdirSync(FOLDER).filter((name) => name.endsWith('.contract.test.ts'));

/** What only the helper may do: start Quarry, or connect an MCP client of its own. */
const OWN_HARNESS = [/\bstartQuarry\(/, /\bnew Client\(/, /\bStdioClientTransport\b/, /\bInMemoryTransport\b/];

describe('contract files', () => {
  it('exist for the areas (the scan is not vacuous)', () => {
    expect(contracts.length).toBeGreaterThanOrEqual(10);
  });

  it.each(contracts)('%s starts its hosts through contract-suite.ts and nothing else', (name) => {
    const source = readFileSync(join(FOLDER, name), 'utf8');
    expect(source).toMatch(/from '\.\/contract-suite\.js'/);
    for (const pattern of OWN_HARNESS) expect(source, `${name} uses ${pattern}`).not.toMatch(pattern);
  });
});
