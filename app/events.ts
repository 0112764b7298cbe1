/** The running service's event map: every service's events, joined. */
import type { PageEvents } from '../services/semantic/page-indexer.js';
import { createEventBus, type EventBus } from '../core/events.js';

export interface CapabilityCalledEvent {
  id: string;
  host: string;
  durationMs: number;
  status: string;
}

export type QuarryEvents = PageEvents & {
    'capability.called': (event: CapabilityCalledEvent) => void;
  };

export type QuarryEventBus = EventBus<QuarryEvents>;

export function createQuarryEventBus(): QuarryEventBus {
  return createEventBus<QuarryEvents>();
}
