/**
 * The in-process event bus (eventemitter3), typed by an event map. The
 * kernel only provides the mechanism; each service declares the events it
 * emits or listens to, and the composition root (app/events.ts) joins them
 * into the one map of the running service. Listeners must not throw.
 */
import { EventEmitter } from 'eventemitter3';

/** Event name → listener signature. */
export type EventMap = { [event: string]: (...args: never[]) => void };

export type EventBus<Events extends EventMap> = EventEmitter<Events>;

export function createEventBus<Events extends EventMap>(): EventBus<Events> {
  return new EventEmitter<Events>();
}
