/**
 * Monitor alerts on the service's one webhook mechanism
 * (services/webhooks: Standard Webhooks signing, a durable job per message,
 * retries, the delivery log). An alert is recorded on the monitor when its
 * check commits and handed to the mechanism right after; one not handed
 * over yet (the process died in between) is handed over by the next check
 * or the scheduler's sweep. Its webhook-id derives from the result, so it is
 * one message however often it is handed over. alerts_sent counts alerts
 * whose delivery succeeded, once each, when the mechanism says they settled.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../../core/logger.js';
import type { DeliveryState, WebhookDeliveries } from '../../services/webhooks/webhook-deliveries.js';
import type { MonitorRecord, MonitorStore, StoredResult } from './store.js';

export const ALERT_EVENT = 'monitor.alert';
const TAG_AREA = 'monitor';
/** Alerts listed on a monitor (its delivery log); older ones leave the list. */
export const ALERTS_KEPT = 50;

/** The webhook-id of a result's alert. */
export function alertMessageId(resultId: string): string {
  return `msg_${createHash('sha256').update(`${resultId}\n${ALERT_EVENT}`).digest('hex').slice(0, 26)}`;
}

/** The body of the spec's monitor webhook (Events), plus the event name and the result's id. */
export function alertBody(monitor: Pick<MonitorRecord, 'id' | 'topic'>, result: StoredResult): string {
  return JSON.stringify({
    event: ALERT_EVENT,
    monitor_id: monitor.id,
    topic: monitor.topic,
    result_id: result.id,
    new_results: result.new_results,
    analysis: result.analysis,
    timestamp: result.timestamp,
  });
}

export class MonitorAlerts {
  constructor(
    private readonly store: MonitorStore,
    private readonly webhooks: WebhookDeliveries,
    private readonly logger: Logger,
  ) {}

  /** Hands every alert of the monitor not yet handed over to the delivery mechanism. */
  async flush(monitor: MonitorRecord): Promise<void> {
    const waiting = monitor.alerts.filter((alert) => !alert.enqueued);
    if (waiting.length === 0 || !monitor.webhook_url) return;
    for (const alert of waiting) {
      const result = await this.store.result(alert.result_id);
      if (result) {
        await this.webhooks.enqueue({
          id: alert.webhook_id,
          url: monitor.webhook_url,
          body: alertBody(monitor, result),
          ...(monitor.secret ? { secret: monitor.secret } : {}),
          tag: `${TAG_AREA}:${monitor.id}`,
        });
      } else {
        this.logger.warn(
          { monitor: monitor.id, result: alert.result_id },
          'the result of an alert is gone; the alert is dropped',
        );
      }
    }
    const handed = new Set(waiting.map((alert) => alert.webhook_id));
    await this.store.update(monitor.id, (current) => ({
      ...current,
      alerts: current.alerts.map((alert) => (handed.has(alert.webhook_id) ? { ...alert, enqueued: true } : alert)),
    }));
  }

  /** Registers the settle listener: a delivered alert counts once in alerts_sent; the final state stays in the log. */
  listen(): void {
    this.webhooks.onSettled(TAG_AREA, async (tag, state) => {
      const monitorId = tag.slice(TAG_AREA.length + 1);
      await this.store.update(monitorId, (current) => settle(current, state));
    });
  }

  /** Live states of the monitor's alerts that are still pending (the settled ones carry their final state). */
  async liveStates(monitor: MonitorRecord): Promise<Map<string, DeliveryState>> {
    const pending = monitor.alerts.filter((alert) => !alert.settled && alert.enqueued);
    const states = await Promise.all(
      pending.map(async (alert) => [alert.webhook_id, await this.webhooks.state(alert.webhook_id)] as const),
    );
    return new Map(states.filter((entry): entry is readonly [string, DeliveryState] => entry[1] !== null));
  }

  /** Stops deliveries of a deleted monitor that have not gone out yet. */
  async cancelPending(monitor: MonitorRecord): Promise<void> {
    await Promise.all(
      monitor.alerts
        .filter((alert) => !alert.settled)
        .map((alert) => this.webhooks.cancel(alert.webhook_id).catch(() => null)),
    );
  }
}

/** The monitor after one of its alerts settled; null when nothing changes (told twice). */
export function settle(current: MonitorRecord, state: DeliveryState & { id: string }): MonitorRecord | null {
  if (state.status === 'pending') return null;
  const at = current.alerts.findIndex((alert) => alert.webhook_id === state.id);
  const entry = at >= 0 ? current.alerts[at]! : null;
  if (entry?.settled) return null;
  const delivered = state.status === 'delivered';
  const alerts = [...current.alerts];
  if (entry) {
    alerts[at] = {
      ...entry,
      enqueued: true,
      settled: {
        status: state.status,
        attempts: state.attempts,
        last_error: state.lastError ?? null,
        delivered_at: state.deliveredAt ?? null,
      },
    };
  }
  // An alert that already left the log (more than ALERTS_KEPT since) is still counted when delivered.
  if (!entry && !delivered) return null;
  return { ...current, alerts, alerts_sent: current.alerts_sent + (delivered ? 1 : 0) };
}
