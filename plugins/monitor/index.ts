/**
 * The monitor area (/api/v1/monitor): durable topic monitors checked on a
 * schedule that survives restarts, results kept, signed webhook alerts with
 * retries and a delivery log. docs/monitor.md says how and why.
 */
import { MONITOR_USES } from './uses.js';
import type { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { definePlugin } from '../../app/plugin-services.js';
import { monitorArea } from './area.js';
import { CHECK_JOB_KIND, type CheckJobInput } from './schedule.js';
import {
  checkOutputSchema,
  createInputSchema,
  createOutputSchema,
  deleteOutputSchema,
  listInputSchema,
  listOutputSchema,
  monitorIdInputSchema,
  monitorSchema,
  pauseOutputSchema,
  resultsInputSchema,
  resultsOutputSchema,
  resumeOutputSchema,
} from './schemas.js';
import { outboundLinkPolicy } from '../../services/markdown/link-policy.js';
import { listMarkdown, monitorMarkdown, resultsMarkdown } from './views.js';
import { MONITOR_LANE } from '../../app/config.js';

type MonitorList = z.infer<typeof listOutputSchema>;

const BASE = '/api/v1/monitor/topics';
/** Store and Redis hiccups are worth another run of a check; anything else is committed by the check itself. */
const RETRYABLE = new Set(['UNAVAILABLE', 'TIMEOUT', 'OVERLOADED', 'INTERNAL']);

export default definePlugin({
  uses: MONITOR_USES,
  jobHandlers: (services) => ({
    [CHECK_JOB_KIND]: {
      lane: MONITOR_LANE,
      maxAttempts: 4,
      retryDelayMs: (error, attempt) =>
        RETRYABLE.has(error.code) ? Math.min(60_000, 2000 * 2 ** (attempt - 1)) : null,
      run: (input, job) => monitorArea(services).runCheck(input as CheckJobInput, job),
    },
  }),

  start(services) {
    const area = monitorArea(services);
    if (services.config.monitor.testOnlyMinuteMs !== 60_000) {
      services.logger.warn(
        { minuteMs: services.config.monitor.testOnlyMinuteMs },
        'monitor.testOnlyMinuteMs is set: check intervals are not in minutes (tests and benchmarks only)',
      );
    }
    area.scheduler.start();
    return { stop: () => area.scheduler.stop() };
  },

  setup(services) {
    const linkPolicy = outboundLinkPolicy(services.config.outbound);
    const area = monitorArea(services);
    // Before any job runs: a delivery resumed at start may settle at once.
    area.alerts.listen();

    const create = defineCapability({
      id: 'monitor.create',
      title: 'Create a topic monitor',
      description:
        'Watch a topic: every check_interval_minutes (5-1440, default 60) the topic and keywords are ' +
        'searched (sources become site filters), ' +
        'results the monitor has not seen before are stored and, with a webhook_url, POSTed there signed the ' +
        'Standard Webhooks way ' +
        '(verify with webhook_secret, returned only here). The first check alerts on what it finds; with ' +
        'alert_on_first_check false it only records a baseline. ' +
        'deep_analysis reads the new pages and summarises them.',
      input: createInputSchema,
      output: createOutputSchema,
      http: { method: 'POST', path: BASE },
      mcpTool: 'monitor_create',
      toMarkdown: monitorMarkdown,
      handler: (input, ctx) => area.create(input, ctx.caller),
    });

    const list = defineCapability({
      id: 'monitor.list',
      title: 'List monitors',
      description:
        'Your monitors (an admin: every monitor), active and paused (status filters), oldest first, with ' +
        'when it was last checked and how many alerts were delivered.',
      input: listInputSchema,
      output: listOutputSchema,
      http: { method: 'GET', path: BASE, answerField: 'monitors' },
      mcpTool: 'monitor_list',
      readOnly: true,
      toMarkdown: (out) => listMarkdown(out.monitors),
      handler: async (input, ctx) => ({ monitors: await area.list(ctx.caller, input.status) }),
    });

    const get = defineCapability({
      id: 'monitor.get',
      title: 'Get a monitor',
      description:
        'A monitor in full: its settings, state, next check, the last check’s outcome and the delivery log ' +
        'of its recent alerts.',
      input: monitorIdInputSchema,
      output: monitorSchema,
      http: { method: 'GET', path: `${BASE}/:monitor_id` },
      mcpTool: 'monitor_get',
      readOnly: true,
      toMarkdown: monitorMarkdown,
      handler: (input, ctx) => area.details(input.monitor_id, ctx.caller),
    });

    const pause = defineCapability({
      id: 'monitor.pause',
      title: 'Pause a monitor',
      description:
        'Stops scheduled checks until resumed (pausing a paused monitor changes nothing). Manual checks still run.',
      input: monitorIdInputSchema,
      output: pauseOutputSchema,
      http: { method: 'POST', path: `${BASE}/:monitor_id/pause` },
      mcpTool: 'monitor_pause',
      toMarkdown: (out) => `Monitor ${out.monitor_id} is paused.`,
      async handler(input, ctx) {
        await area.pause(input.monitor_id, ctx.caller);
        return { status: 'paused' as const, monitor_id: input.monitor_id };
      },
    });

    const resume = defineCapability({
      id: 'monitor.resume',
      title: 'Resume a monitor',
      description:
        'Restarts scheduled checks: the next is due check_interval_minutes after the last one (at once if ' +
        'that has passed). Resuming an active monitor changes nothing.',
      input: monitorIdInputSchema,
      output: resumeOutputSchema,
      http: { method: 'POST', path: `${BASE}/:monitor_id/resume` },
      mcpTool: 'monitor_resume',
      toMarkdown: (out) => `Monitor ${out.monitor_id} is active.`,
      async handler(input, ctx) {
        await area.resume(input.monitor_id, ctx.caller);
        return { status: 'active' as const, monitor_id: input.monitor_id };
      },
    });

    const check = defineCapability({
      id: 'monitor.check',
      title: 'Check a monitor now',
      description:
        'Runs a check now, in the background (paused monitors too); answers at once with status "checking". ' +
        'Several calls before it ends are one check. Read the outcome with monitor_get or monitor_results.',
      input: monitorIdInputSchema,
      output: checkOutputSchema,
      http: { method: 'POST', path: `${BASE}/:monitor_id/check` },
      mcpTool: 'monitor_check',
      toMarkdown: (out) => `Checking monitor ${out.monitor_id}.`,
      async handler(input, ctx) {
        await area.check(input.monitor_id, ctx.caller);
        return { status: 'checking' as const, monitor_id: input.monitor_id };
      },
    });

    const results = defineCapability({
      id: 'monitor.results',
      title: 'Monitor results',
      description:
        'What the monitor’s checks found, newest first (limit 1-100, default 10): each result lists the new ' +
        'results of one check and their analysis; the first is the baseline.',
      input: resultsInputSchema,
      output: resultsOutputSchema,
      http: { method: 'GET', path: `${BASE}/:monitor_id/results`, answerField: 'results' },
      mcpTool: 'monitor_results',
      readOnly: true,
      mcpResource: {
        uriTemplate: 'quarry://monitors/{monitor_id}/results',
        name: 'monitor-results',
        title: 'A monitor\u2019s latest results',
        description:
          'What a monitor\u2019s last 10 checks found, newest first: the new results of each check and their ' +
          'analysis (the first check is the baseline).',
        list: {
          capability: 'monitor.list',
          items: (out) =>
            (out as MonitorList).monitors.map((m) => ({ variables: { monitor_id: m.id }, name: m.id, title: m.topic })),
        },
      },
      toMarkdown: (out) => resultsMarkdown(out.results, linkPolicy),
      handler: async (input, ctx) => ({ results: await area.results(input.monitor_id, input.limit, ctx.caller) }),
    });

    const remove = defineCapability({
      id: 'monitor.delete',
      title: 'Delete a monitor',
      description: 'Deletes the monitor with its results and its schedule; alerts not yet delivered are not sent.',
      input: monitorIdInputSchema,
      output: deleteOutputSchema,
      http: { method: 'DELETE', path: `${BASE}/:monitor_id` },
      mcpTool: 'monitor_delete',
      toMarkdown: (out) => `Deleted monitor ${out.monitor_id}.`,
      async handler(input, ctx) {
        await area.remove(input.monitor_id, ctx.caller);
        return { deleted: true as const, monitor_id: input.monitor_id };
      },
    });

    return [create, list, get, pause, resume, check, results, remove];
  },
});
