/** The running service's event map: every service's events, joined. */
import type { PageEvents } from '../services/semantic/page-indexer.js';
import { createEventBus, type EventBus } from '../core/events.js';

export interface CapabilityCalledEvent {
  id: string;
  host: string;
  durationMs: number;
  status: string;
}

/** A monitor check has committed (plugins/monitor): when it was due, when it started, what it found. */
export interface MonitorCheckedEvent {
  monitorId: string;
  /** When the check was due (its job's runAt); null for a manual check. */
  scheduledFor: number | null;
  startedAt: number;
  finishedAt: number;
  newResults: number;
}

export type QuarryEvents = PageEvents & {
  'capability.called': (event: CapabilityCalledEvent) => void;
  'monitor.checked': (event: MonitorCheckedEvent) => void;
};

export type QuarryEventBus = EventBus<QuarryEvents>;

export function createQuarryEventBus(): QuarryEventBus {
  return createEventBus<QuarryEvents>();
}
