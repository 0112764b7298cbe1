/**
 * Contract of the Monitor API (spec: "Monitor API", "Monitor", "Monitor
 * result", "Monitor status", Limits), over HTTP and MCP, against the sandbox
 * web (a SearXNG-format engine with a few items per topic, a webhook
 * receiver). The list and results routes answer bare arrays over HTTP; MCP
 * carries them under `monitors` and `results`.
 */
import { afterAll, expect } from 'vitest';
import { NewsFeed } from '../sandbox/news-feed.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { describeContract, field, startContractHosts, type RouteContract } from './contract-suite.js';
import type { FieldSpec } from './response-shape.js';
import { until } from '../sandbox/until.js';

let web: SandboxWeb;
const feed = new NewsFeed();
/** The monitor the per-monitor routes work on, created once the hosts run. */
const fixture = { monitor_id: '' };
const fixtureResults = { monitor_id: '', limit: 5 };
const MONITOR_ID = /^mon_[0-9a-f]{24}$/;

const listItem = (prefix: string): FieldSpec[] => [
  field(`${prefix}id`, 'string', { pattern: MONITOR_ID }),
  field(`${prefix}topic`, 'string'),
  field(`${prefix}keywords`, 'string[]'),
  field(`${prefix}status`, 'string', { oneOf: ['active', 'paused'] }),
  field(`${prefix}last_checked`, 'string|null'),
  field(`${prefix}alerts_sent`, 'integer'),
  field(`${prefix}created_at`, 'string'),
];

/** The Monitor resource and the extensions; `settled` when the monitor has been checked and alerted. */
const monitorFields = (settled: boolean): FieldSpec[] => {
  const later = settled ? {} : { optional: true };
  return [
    ...listItem(''),
    field('sources', 'string[]|null'),
    field('check_interval_minutes', 'integer'),
    field('webhook_url', 'string|null'),
    field('deep_analysis', 'boolean'),
    field('engines', 'string[]|null'),
    field('alert_on_first_check', 'boolean'),
    field('next_check_at', 'string|null'),
    field('check_in_progress', 'boolean'),
    field('checks_run', 'integer'),
    field('results_stored', 'integer'),
    field('last_check', settled ? 'object' : 'object|null'),
    field('last_check.at', 'string', later),
    field('last_check.status', 'string', { ...later, oneOf: ['ok', 'partial', 'failed'] }),
    field('last_check.results_found', 'integer', later),
    field('last_check.new_results', 'integer', later),
    field('last_check.engines_failed', 'string[]', later),
    field('last_check.error', 'string|null', later),
    field('webhook_signing', 'string|null', { oneOf: ['monitor_secret', 'global_secret', null] }),
    field('deliveries', 'array'),
    field('deliveries[].webhook_id', 'string', { ...later, pattern: /^msg_/ }),
    field('deliveries[].result_id', 'string', { ...later, pattern: /^res_/ }),
    field('deliveries[].status', 'string', { ...later, oneOf: ['pending', 'delivered', 'failed'] }),
    field('deliveries[].attempts', 'integer', later),
    field('deliveries[].last_error', 'string|null', later),
    field('deliveries[].next_attempt_at', 'string|null', later),
    field('deliveries[].delivered_at', 'string|null', later),
    field('deliveries[].created_at', 'string', later),
  ];
};

const resultFields: FieldSpec[] = [
  field('results[].id', 'string', { pattern: /^res_[0-9a-f]{24}$/ }),
  field('results[].monitor_id', 'string', { pattern: MONITOR_ID }),
  field('results[].timestamp', 'string'),
  field('results[].new_results', 'array'),
  field('results[].new_results[].title', 'string'),
  field('results[].new_results[].url', 'string'),
  field('results[].new_results[].snippet', 'string'),
  field('results[].analysis', 'string'),
  field('results[].analysis_method', 'string', { oneOf: ['llm', 'extractive', 'titles'] }),
  field('results[].model_used', 'string|null'),
  field('results[].baseline', 'boolean'),
];

const malformedId = { name: 'a malformed monitor_id', body: { monitor_id: 'mon_123' }, field: 'monitor_id' };
const valid = { topic: 'contractline', keywords: ['contractline'] };
/** Its webhook_url is the sandbox's receiver, set once the sandbox runs. */
const fullCreate: Record<string, unknown> = {
  topic: 'contractline releases',
  keywords: ['contractline', 'release notes'],
  sources: ['news.example.org'],
  check_interval_minutes: 1440,
  webhook_url: '',
  deep_analysis: true,
  engines: ['searxng'],
  alert_on_first_check: true,
};

const routes: RouteContract[] = [
  {
    route: 'POST /api/v1/monitor/topics',
    tool: 'monitor_create',
    minimal: valid,
    full: fullCreate,
    bounds: [
      { field: 'check_interval_minutes', kind: 'integer', min: 5, max: 1440 },
      { field: 'keywords', kind: 'array', min: 1, max: 20, item: (i) => `contractline ${i}` },
      { field: 'sources', kind: 'array', max: 20, item: (i) => `site${i}.example.org` },
    ],
    rejects: [
      { name: 'empty keywords', body: { topic: 't', keywords: ['  '] }, field: 'keywords' },
      { name: 'an empty topic', body: { topic: ' ', keywords: ['k'] }, field: 'topic' },
      {
        name: 'a webhook_url that is not http(s)',
        body: { ...valid, webhook_url: 'ftp://example.org/hook' },
        field: 'webhook_url',
      },
      {
        name: 'a webhook_url on a private address',
        body: { ...valid, webhook_url: 'http://10.20.30.40/hook' },
        field: 'webhook_url',
      },
      { name: 'a source that is not a domain', body: { ...valid, sources: ['not a domain'] }, field: 'sources' },
    ],
    response: [...monitorFields(false), field('webhook_secret', 'string|null')],
    volatile: [
      'id',
      'webhook_secret',
      'next_check_at',
      'last_checked',
      'checks_run',
      'check_in_progress',
      'last_check',
      'results_stored',
    ],
    invariants: [
      {
        name: 'a new monitor is active, unchecked, with no alerts, and says what it was given',
        check(body, sent) {
          expect(body).toMatchObject({
            status: 'active',
            alerts_sent: 0,
            check_interval_minutes: (sent.check_interval_minutes as number | undefined) ?? 60,
            deep_analysis: sent.deep_analysis ?? false,
          });
          expect(body.sources).toEqual(sent.sources ?? null);
          expect(body.webhook_secret === null).toBe(sent.webhook_url === undefined);
          if (sent.webhook_url) expect(body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
        },
      },
    ],
  },
  {
    route: 'GET /api/v1/monitor/topics',
    tool: 'monitor_list',
    minimal: {},
    arrayField: 'monitors',
    enums: [{ field: 'status', values: ['active', 'paused'] }],
    response: listItem('monitors[].'),
    volatile: ['monitors[].last_checked', 'monitors[].alerts_sent'],
  },
  {
    route: 'GET /api/v1/monitor/topics/{monitor_id}',
    tool: 'monitor_get',
    minimal: fixture,
    rejects: [malformedId],
    response: monitorFields(true),
    volatile: ['check_in_progress'],
    invariants: [
      {
        name: 'the fixture was checked and its alert delivered',
        check(body) {
          expect(body.checks_run).toBeGreaterThanOrEqual(1);
          expect(body.deliveries[0]).toMatchObject({ status: 'delivered' });
          expect(body.webhook_secret).toBeUndefined();
        },
      },
    ],
  },
  {
    route: 'POST /api/v1/monitor/topics/{monitor_id}/pause',
    tool: 'monitor_pause',
    minimal: fixture,
    rejects: [malformedId],
    response: [
      field('status', 'string', { oneOf: ['paused'] }),
      field('monitor_id', 'string', { pattern: MONITOR_ID }),
    ],
  },
  {
    route: 'POST /api/v1/monitor/topics/{monitor_id}/resume',
    tool: 'monitor_resume',
    minimal: fixture,
    rejects: [malformedId],
    response: [
      field('status', 'string', { oneOf: ['active'] }),
      field('monitor_id', 'string', { pattern: MONITOR_ID }),
    ],
  },
  {
    route: 'POST /api/v1/monitor/topics/{monitor_id}/check',
    tool: 'monitor_check',
    minimal: fixture,
    rejects: [malformedId],
    response: [
      field('status', 'string', { oneOf: ['checking'] }),
      field('monitor_id', 'string', { pattern: MONITOR_ID }),
    ],
  },
  {
    route: 'GET /api/v1/monitor/topics/{monitor_id}/results',
    tool: 'monitor_results',
    minimal: fixture,
    full: fixtureResults,
    arrayField: 'results',
    bounds: [{ field: 'limit', kind: 'integer', min: 1, max: 100 }],
    rejects: [malformedId],
    response: resultFields,
    invariants: [
      {
        name: 'newest first, at most limit',
        check(body, sent) {
          expect(body.results.length).toBeLessThanOrEqual((sent.limit as number | undefined) ?? 10);
          const times = body.results.map((r: { timestamp: string }) => r.timestamp);
          expect([...times].sort().reverse()).toEqual(times);
        },
      },
    ],
  },
  {
    route: 'DELETE /api/v1/monitor/topics/{monitor_id}',
    tool: 'monitor_delete',
    minimal: { monitor_id: 'set by prepare' },
    rejects: [malformedId],
    // Each host deletes a monitor of its own.
    prepare: async () => ({
      monitor_id: (
        await contract.hosts().quarry.post('/api/v1/monitor/topics', { ...valid, check_interval_minutes: 1440 })
      ).body.id,
    }),
    response: [field('deleted', 'boolean', { oneOf: [true] }), field('monitor_id', 'string', { pattern: MONITOR_ID })],
    volatile: ['monitor_id'],
  },
];

const contract = describeContract(
  'monitor',
  async () => {
    web = await startSandboxWeb();
    feed.set('contractline', [
      {
        url: 'https://news.example.org/contractline/1',
        title: 'contractline release notes 1',
        content: 'The contractline project released version 1.',
      },
      { url: 'https://news.example.org/contractline/2', title: 'contractline 2', content: 'More on contractline.' },
    ]);
    web.answerEngine('searxng', feed.answerer());
    fullCreate.webhook_url = web.webhookUrl('contract-full');
    const hosts = await startContractHosts(web, {
      search: { defaultEngines: ['searxng'] },
      rateLimitPerMinute: 100_000,
      monitor: { jitterShare: 0 },
    });
    const created = await hosts.quarry.post('/api/v1/monitor/topics', {
      ...valid,
      alert_on_first_check: true,
      check_interval_minutes: 1440,
      webhook_url: web.webhookUrl('contract'),
    });
    fixture.monitor_id = created.body.id;
    fixtureResults.monitor_id = created.body.id;
    await until(
      "the fixture monitor's alert to be delivered",
      async () => {
        const monitor = (await hosts.quarry.get(`/api/v1/monitor/topics/${fixture.monitor_id}`)).body;
        return monitor.deliveries[0]?.status === 'delivered';
      },
      30_000,
    );
    return hosts;
  },
  routes,
);

afterAll(async () => {
  await web?.close();
});
