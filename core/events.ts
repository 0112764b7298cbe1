/** The in-process event bus (eventemitter3), typed. Listeners must not throw. */
import { EventEmitter } from 'eventemitter3';
import type { JobRecord } from '../services/jobs/job-store.js';

export interface EngineFailedEvent {
  engine: string;
  code: string;
  message: string;
  /** Epoch milliseconds until which the engine is skipped, when the failure suspended it. */
  suspendedUntil?: number;
}

export interface EngineSuspendedEvent {
  engine: string;
  code: string;
  message: string;
  /** Epoch milliseconds. */
  suspendedUntil: number;
}

export interface CapabilityCalledEvent {
  id: string;
  host: string;
  durationMs: number;
  status: string;
}

/** A page fetched and extracted successfully (feeds the local page index). */
export interface PageExtractedEvent {
  url: string;
  title: string;
  text: string;
  publishedDate: string | null;
  author: string | null;
}

export type QuarryEvents = {
  'page.extracted': (event: PageExtractedEvent) => void;
  /** After every durable state change of a job. */
  'job.updated': (job: JobRecord) => void;
  'engine.failed': (event: EngineFailedEvent) => void;
  'engine.suspended': (event: EngineSuspendedEvent) => void;
  'capability.called': (event: CapabilityCalledEvent) => void;
};

export type EventBus = EventEmitter<QuarryEvents>;

export function createEventBus(): EventBus {
  return new EventEmitter<QuarryEvents>();
}
