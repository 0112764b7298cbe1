/** What clients see of monitors and results (the spec's fields, then the extensions), and their markdown for agents. */
import { escapeMarkdownText as text, inlineText, type LinkPolicy } from '../../services/markdown/escape.js';
import { renderSourceList } from '../../services/markdown/source-list.js';
import type { DeliveryState } from '../../services/webhooks/webhook-deliveries.js';
import type { ListItemView, MonitorView, ResultView } from './schemas.js';
import type { MonitorRecord, StoredResult } from './store.js';

export function listItemView(record: MonitorRecord): ListItemView {
  return {
    id: record.id,
    topic: record.topic,
    keywords: record.keywords,
    status: record.status,
    last_checked: record.last_checked,
    alerts_sent: record.alerts_sent,
    created_at: record.created_at,
  };
}

export interface LiveState {
  nextCheckAt: string | null;
  checkInProgress: boolean;
  deliveries: Map<string, DeliveryState>;
}

export function monitorView(record: MonitorRecord, live: LiveState): MonitorView {
  return {
    id: record.id,
    topic: record.topic,
    keywords: record.keywords,
    sources: record.sources,
    check_interval_minutes: record.check_interval_minutes,
    webhook_url: record.webhook_url,
    deep_analysis: record.deep_analysis,
    status: record.status,
    last_checked: record.last_checked,
    alerts_sent: record.alerts_sent,
    created_at: record.created_at,
    engines: record.engines,
    alert_on_first_check: record.alert_on_first_check,
    next_check_at: record.status === 'active' ? live.nextCheckAt : null,
    check_in_progress: live.checkInProgress,
    checks_run: record.checks_run,
    results_stored: record.result_ids.length,
    last_check: record.last_check,
    webhook_signing: record.webhook_url === null ? null : record.secret ? 'monitor_secret' : 'global_secret',
    deliveries: record.alerts.map((alert) => {
      const state = live.deliveries.get(alert.webhook_id);
      const settled = alert.settled;
      return {
        webhook_id: alert.webhook_id,
        result_id: alert.result_id,
        status: settled?.status ?? 'pending',
        attempts: settled?.attempts ?? state?.attempts ?? 0,
        last_error: settled ? settled.last_error : (state?.lastError ?? null),
        next_attempt_at: settled ? null : (state?.nextAttemptAt ?? null),
        delivered_at: settled?.delivered_at ?? null,
        created_at: alert.created_at,
      };
    }),
  };
}

export function resultView(result: StoredResult): ResultView {
  return {
    id: result.id,
    monitor_id: result.monitor_id,
    timestamp: result.timestamp,
    new_results: result.new_results,
    analysis: result.analysis,
    analysis_method: result.analysis_method,
    model_used: result.model_used,
    baseline: result.baseline,
  };
}

export function monitorMarkdown(view: MonitorView & { webhook_secret?: string | null }): string {
  const lines = [
    `# Monitor ${view.id}: ${inlineText(view.topic)} (${view.status})`,
    `Keywords: ${inlineText(view.keywords.join(', '))}${view.sources ? `; sources: ${inlineText(view.sources.join(', '))}` : ''}`,
    `Every ${view.check_interval_minutes} min; last checked ${view.last_checked ?? 'never'}; next ${view.next_check_at ?? '—'}${view.check_in_progress ? '; a check is running' : ''}`,
    `Checks: ${view.checks_run}; results stored: ${view.results_stored}; alerts sent: ${view.alerts_sent}${view.webhook_url ? ` to ${inlineText(view.webhook_url)}` : ' (no webhook)'}`,
  ];
  if (view.last_check)
    lines.push(
      `Last check: ${view.last_check.status}, ${view.last_check.results_found} found, ${view.last_check.new_results} new${view.last_check.error ? ` — ${inlineText(view.last_check.error)}` : ''}`,
    );
  if (view.webhook_secret) lines.push(`Webhook secret (shown only now): ${view.webhook_secret}`);
  if (view.deliveries.length > 0) {
    lines.push(
      '## Deliveries',
      ...view.deliveries
        .slice(0, 10)
        .map(
          (d) =>
            `- ${d.webhook_id}: ${d.status}, ${d.attempts} attempt(s)${d.last_error ? `, last error ${inlineText(d.last_error)}` : ''}`,
        ),
    );
  }
  return lines.join('\n');
}

export function listMarkdown(items: ListItemView[]): string {
  if (items.length === 0) return 'No monitors.';
  return [
    `# ${items.length} monitor(s)`,
    ...items.map(
      (m) =>
        `- **${inlineText(m.topic)}** (${m.id}, ${m.status}) — last checked ${m.last_checked ?? 'never'}, ${m.alerts_sent} alert(s)`,
    ),
  ].join('\n');
}

export function resultsMarkdown(results: ResultView[], policy: LinkPolicy): string {
  if (results.length === 0) return 'No results yet.';
  return results
    .map((r) =>
      [
        `## ${r.timestamp}${r.baseline ? ' (baseline)' : ''} — ${r.new_results.length} result(s) (${r.id})`,
        // The analysis quotes or summarises the pages found.
        text(r.analysis),
        ...renderSourceList(
          r.new_results.map((n) => ({ title: n.title, url: n.url, excerpt: n.snippet })),
          { policy, marker: 'bullet', excerptChars: 200 },
        ),
      ].join('\n'),
    )
    .join('\n\n');
}
