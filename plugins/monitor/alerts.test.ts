import { describe, expect, it } from 'vitest';
import { alertBody, alertMessageId, settle } from './alerts.js';
import type { MonitorRecord } from './store.js';

const monitor = {
  id: 'mon_0123456789abcdef01234567',
  topic: 'topic',
  alerts_sent: 0,
  alerts: [{ webhook_id: 'msg_a', result_id: 'res_a', created_at: '2026-01-01T00:00:00.000Z', enqueued: true }],
} as unknown as MonitorRecord;

describe('monitor alerts', () => {
  it('derive one webhook-id per result', () => {
    expect(alertMessageId('res_1')).toBe(alertMessageId('res_1'));
    expect(alertMessageId('res_1')).not.toBe(alertMessageId('res_2'));
    expect(alertMessageId('res_1')).toMatch(/^msg_[0-9a-f]{26}$/);
  });

  it('carry the spec’s body', () => {
    const body = JSON.parse(
      alertBody(monitor, {
        id: 'res_a',
        monitor_id: monitor.id,
        timestamp: '2026-01-01T00:00:00.000Z',
        new_results: [{ title: 't', url: 'u', snippet: 's' }],
        analysis: 'a',
        analysis_method: 'titles',
        model_used: null,
        baseline: false,
      }),
    );
    expect(body).toEqual({
      event: 'monitor.alert',
      monitor_id: monitor.id,
      topic: 'topic',
      result_id: 'res_a',
      new_results: [{ title: 't', url: 'u', snippet: 's' }],
      analysis: 'a',
      timestamp: '2026-01-01T00:00:00.000Z',
    });
  });

  it('count a delivered alert once however often they are told', () => {
    const delivered = {
      id: 'msg_a',
      status: 'delivered' as const,
      attempts: 2,
      lastError: 'HTTP 503',
      deliveredAt: '2026-01-01T00:01:00.000Z',
    };
    const once = settle(monitor, delivered)!;
    expect(once.alerts_sent).toBe(1);
    expect(once.alerts[0]!.settled).toEqual({
      status: 'delivered',
      attempts: 2,
      last_error: 'HTTP 503',
      delivered_at: '2026-01-01T00:01:00.000Z',
    });
    expect(settle(once, delivered)).toBeNull();
  });

  it('keep a failed delivery in the log without counting it', () => {
    const failed = settle(monitor, { id: 'msg_a', status: 'failed', attempts: 12, lastError: 'HTTP 500' })!;
    expect(failed.alerts_sent).toBe(0);
    expect(failed.alerts[0]!.settled!.status).toBe('failed');
    expect(settle(monitor, { id: 'msg_gone', status: 'failed', attempts: 1 })).toBeNull();
    expect(settle(monitor, { id: 'msg_gone', status: 'delivered', attempts: 1 })!.alerts_sent).toBe(1);
  });
});
