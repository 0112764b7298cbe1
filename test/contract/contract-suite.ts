/**
 * The contract suite's machinery. An area's contract file is a table written
 * from the spec (one entry per route: the minimal and the full body, every
 * bound, every enum value, every response field with its type and
 * nullability); describeContract() turns it into tests that run each case
 * over HTTP and over MCP and require the same JSON from both (ids, clocks
 * and cache state aside). A new area adds a file with its table.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../app/config.js';
import { keyPrincipalId } from '../../hosts/http/api-keys.js';
import { buildMcpServer } from '../../hosts/mcp/server.js';
import { startQuarry, TEST_KEY, type RunningQuarry, type StartOptions } from '../e2e/harness.js';
import { spawnMcpStdio } from '../e2e/mcp-stdio.js';
import type { SandboxWeb } from '../sandbox/sandbox-web.js';
import { shapeProblems, withoutVolatile, type FieldSpec } from './response-shape.js';

export { field } from './response-shape.js';

type Body = Record<string, unknown>;

export interface Bound {
  field: string;
  /** integer and number: the value; array and string: the length. */
  min?: number;
  max?: number;
  kind: 'integer' | 'number' | 'array' | 'string';
  /** Builds the i-th element of an array bound. */
  item?: (i: number) => unknown;
  /** Body the field is set in; default the route's base (or minimal) body. */
  base?: Body;
}

export interface EnumRule {
  field: string;
  /** Strings, or the booleans a field also takes (`include_answer: true`). */
  values: ReadonlyArray<string | boolean>;
  base?: Body;
  /** The field is a list of these values (`categories: ['overview']`): each is sent alone, as a one-item list. */
  list?: boolean;
  /** Fields a value needs beside it, e.g. json_css needs css_schema. */
  with?: Record<string, Body>;
}

export interface RouteContract {
  /**
   * "METHOD /path" as in the spec; `{name}` in the path is filled from the body's field of that name (sent in the path,
   * not the body).
   */
  route: string;
  tool: string;
  minimal: Body;
  full?: Body;
  /** Body that bounds and enum values are set in; default minimal. */
  base?: Body;
  bounds?: Bound[];
  enums?: EnumRule[];
  /** Bodies the spec's rules refuse, with the field the 400 must name. */
  rejects?: Array<{ name: string; body: Body; field: string }>;
  response: FieldSpec[];
  /** Further paths whose values differ between two identical calls. */
  volatile?: string[];
  /** Success status over HTTP; default 200. */
  status?: number;
  /** Checks of the minimal and full answers beyond field types. */
  invariants?: Array<{ name: string; check(body: any, sent: Body): void }>;
  /** The table lists every field: an answer with a field it does not declare fails. */
  closed?: boolean;
  /** Per-test limit for this route's cases; default 60 s. */
  timeoutMs?: number;
  /**
   * The spec answers a bare array over HTTP; MCP's structured content is an
   * object with the array under this field. Response paths are written from
   * that object (`monitors[].id`).
   */
  arrayField?: string;
  /** Builds the body of each single call from the table's (e.g. a fresh resource to delete), for HTTP and MCP alike. */
  /** Refused bodies go through prepare too: it fills what every body needs (a URL known once the test runs). */
  prepareRefused?: boolean;
  prepare?(body: Body): Promise<Body>;
}

export interface Answer {
  status: number;
  body: any;
}

export interface ContractHosts {
  quarry: RunningQuarry;
  /** The MCP client itself, for what the tables do not cover (progress notifications, tasks). */
  client: Client;
  http(method: string, path: string, body: Body): Promise<Answer>;
  mcp(tool: string, args: Body, timeoutMs?: number): Promise<{ isError: boolean; structured: unknown; text: string }>;
  close(): Promise<void>;
}

/** Holds an answer to a field table outside the tables (a route's later steps, a resource's lifecycle). */
export function expectFields(body: unknown, fields: FieldSpec[], where: string): void {
  expect(shapeProblems(body, fields, { strict: true }), where).toEqual([]);
}

export interface ContractHostOptions {
  /**
   * `in-process` (default): the official client on an in-memory transport to the same app, acting for
   * the HTTP test key. `stdio`: the built package's `quarry mcp` as a child process, configured like
   * the HTTP host by a config file, acting as the local MCP host does (an admin).
   */
  mcp?: 'in-process' | 'stdio';
  /** With stdio: the child uses the HTTP host's data directory (one graph, one corpus store), not its own. */
  sharedData?: boolean;
  /** Keys the HTTP host accepts (startQuarry's options). */
  http?: Pick<StartOptions, 'apiKeys' | 'adminApiKeys'>;
}

/** The built package's stdio MCP host on the sandbox, configured by a file as a user would. */
async function stdioClient(
  web: SandboxWeb,
  overrides: ConfigInput,
  sharedDataDir: string | null,
): Promise<{ client: Client; close(): Promise<void> }> {
  return spawnMcpStdio(web, overrides, {
    ...(sharedDataDir ? { dataDir: sharedDataDir } : {}),
    clientName: 'quarry-contract',
  });
}

/** An in-memory MCP client on the HTTP host's app, acting for the HTTP test key. */
async function inProcessClient(quarry: RunningQuarry): Promise<{ client: Client; close(): Promise<void> }> {
  // Both hosts act for the same caller (the HTTP test key), so each sees what the other made.
  const server: Server = buildMcpServer(quarry.app, { id: keyPrincipalId(TEST_KEY), admin: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'quarry-contract', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Quarry over HTTP (the harness) and over MCP (the official client: in process, or the built package over stdio). */
export async function startContractHosts(
  web: SandboxWeb,
  overrides: ConfigInput = {},
  options: ContractHostOptions = {},
): Promise<ContractHosts> {
  const quarry = await startQuarry(web, overrides, options.http ?? {});
  const mcpHost =
    options.mcp === 'stdio'
      ? await stdioClient(web, overrides, options.sharedData ? quarry.dataDir : null)
      : await inProcessClient(quarry);
  const { client } = mcpHost;
  return {
    quarry,
    client,
    async http(method, template, given) {
      const body = { ...given };
      const path = template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
        const value = String(body[name] ?? '');
        delete body[name];
        return encodeURIComponent(value);
      });
      if (method === 'DELETE') {
        const response = await fetch(quarry.url + path, { method: 'DELETE', headers: { 'x-api-key': TEST_KEY } });
        return { status: response.status, body: await response.json() };
      }
      if (method === 'GET') {
        const query = new URLSearchParams(
          Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
        ).toString();
        return quarry.get(query ? `${path}?${query}` : path);
      }
      return quarry.post(path, body);
    },
    async mcp(tool, args, timeoutMs = 120_000) {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs });
      const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
      return { isError: result.isError === true, structured: result.structuredContent, text };
    },
    async close() {
      await mcpHost.close();
      await quarry.close();
    },
  };
}

/**
 * The values at and beyond each bound; arrays are built when the test runs (their items may need the sandbox's
 * address).
 */
function boundCases(bound: Bound): Array<{ label: string; value: () => unknown; accepted: boolean }> {
  const cases: Array<{ label: string; value: () => unknown; accepted: boolean }> = [];
  const make = (n: number) => (): unknown =>
    bound.kind === 'array'
      ? Array.from({ length: n }, (_, i) => (bound.item ? bound.item(i) : `item ${i}`))
      : bound.kind === 'string'
        ? 'x'.repeat(n)
        : n;
  const outside = (n: number, direction: -1 | 1): number =>
    bound.kind === 'number' ? Math.round((n + direction * 0.01) * 100) / 100 : n + direction;
  const show = (n: number): string =>
    bound.kind === 'array' ? `${n} items` : bound.kind === 'string' ? `${n} characters` : String(n);
  if (bound.min !== undefined) {
    cases.push({
      label: `${bound.field} = ${show(bound.min)} (minimum) is accepted`,
      value: make(bound.min),
      accepted: true,
    });
    cases.push({
      label: `${bound.field} = ${show(outside(bound.min, -1))} (below the minimum) is refused`,
      value: make(outside(bound.min, -1)),
      accepted: false,
    });
  }
  if (bound.max !== undefined) {
    cases.push({
      label: `${bound.field} = ${show(bound.max)} (maximum) is accepted`,
      value: make(bound.max),
      accepted: true,
    });
    cases.push({
      label: `${bound.field} = ${show(outside(bound.max, 1))} (above the maximum) is refused`,
      value: make(outside(bound.max, 1)),
      accepted: false,
    });
  }
  return cases;
}

/**
 * One describe block per route. `start` builds the hosts (sandbox web and
 * Quarry as the area needs them); the table drives everything else.
 */
export function describeContract(
  area: string,
  start: () => Promise<ContractHosts>,
  routes: RouteContract[],
): { hosts: () => ContractHosts } {
  let hosts: ContractHosts;
  beforeAll(async () => {
    hosts = await start();
  }, 120_000);
  afterAll(async () => {
    await hosts?.close();
  });

  /** Runs a body over both hosts and holds both answers to the contract. */
  async function accepted(contract: RouteContract, body: Body, strict: boolean): Promise<any> {
    const [method, path] = contract.route.split(' ') as [string, string];
    const prepare = contract.prepare ?? (async (given: Body) => given);
    const http = await hosts.http(method, path, await prepare(body));
    expect(http.status, `HTTP ${contract.route} ${JSON.stringify(http.body).slice(0, 300)}`).toBe(
      contract.status ?? 200,
    );
    const field = contract.arrayField;
    if (field) expect(Array.isArray(http.body), `HTTP ${contract.route} answers an array`).toBe(true);
    const httpAnswer = field ? { [field]: http.body } : http.body;
    const rules = { strict, closed: contract.closed ?? false };
    expect(shapeProblems(httpAnswer, contract.response, rules), `HTTP answer of ${contract.route}`).toEqual([]);
    const mcp = await hosts.mcp(contract.tool, await prepare(body), contract.timeoutMs);
    expect(mcp.isError, `MCP ${contract.tool}: ${mcp.text.slice(0, 300)}`).toBe(false);
    const structured = JSON.parse(JSON.stringify(mcp.structured));
    expect(shapeProblems(structured, contract.response, rules), `MCP answer of ${contract.tool}`).toEqual([]);
    expect(withoutVolatile(structured, contract.volatile), 'MCP structuredContent is the HTTP JSON').toEqual(
      withoutVolatile(httpAnswer, contract.volatile),
    );
    return httpAnswer;
  }

  async function refused(contract: RouteContract, given: Body, fieldName: string): Promise<void> {
    const [method, path] = contract.route.split(' ') as [string, string];
    const body = contract.prepare && contract.prepareRefused ? await contract.prepare(given) : given;
    const http = await hosts.http(method, path, body);
    expect(http.status, `HTTP ${contract.route}: ${JSON.stringify(http.body).slice(0, 300)}`).toBe(400);
    expect(http.body.error.code).toMatch(/^(INVALID_INPUT|UNKNOWN_ENGINE)$/);
    expect(http.body.error.message).toContain(fieldName);
    const mcp = await hosts.mcp(contract.tool, body, contract.timeoutMs);
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toMatch(/INVALID_INPUT|UNKNOWN_ENGINE/);
    expect(mcp.text).toContain(fieldName);
  }

  describe(`${area} contract`, () => {
    for (const contract of routes) {
      const timeout = contract.timeoutMs ?? 60_000;
      describe(contract.route, () => {
        const bodies: Array<[string, Body]> = [['minimal body', contract.minimal]];
        if (contract.full) bodies.push(['full body', contract.full]);
        for (const [label, body] of bodies) {
          it(
            `${label}: every response field has its spec type, and MCP answers the same JSON`,
            async () => {
              const answer = await accepted(contract, body, true);
              for (const invariant of contract.invariants ?? []) invariant.check(answer, body);
            },
            timeout,
          );
        }
        for (const bound of contract.bounds ?? []) {
          for (const c of boundCases(bound)) {
            it(
              c.label,
              async () => {
                const body = { ...(bound.base ?? contract.base ?? contract.minimal), [bound.field]: c.value() };
                if (c.accepted) await accepted(contract, body, false);
                else await refused(contract, body, bound.field);
              },
              timeout,
            );
          }
        }
        for (const rule of contract.enums ?? []) {
          for (const value of rule.values) {
            it(
              `${rule.field} = "${value}" is accepted`,
              async () => {
                await accepted(
                  contract,
                  {
                    ...(rule.base ?? contract.base ?? contract.minimal),
                    ...(rule.with?.[String(value)] ?? {}),
                    [rule.field]: rule.list ? [value] : value,
                  },
                  false,
                );
              },
              timeout,
            );
          }
          it(
            `${rule.field} outside its values is refused`,
            async () => {
              await refused(
                contract,
                {
                  ...(rule.base ?? contract.base ?? contract.minimal),
                  [rule.field]: rule.list ? ['no_such_value'] : 'no_such_value',
                },
                rule.field,
              );
            },
            timeout,
          );
        }
        for (const reject of contract.rejects ?? []) {
          it(`refuses ${reject.name}`, async () => refused(contract, reject.body, reject.field), timeout);
        }
      });
    }
  });
  return { hosts: () => hosts };
}
