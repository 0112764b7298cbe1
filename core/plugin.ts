/**
 * The area plugin contract, as the kernel sees it. An area plugin's entry
 * module default-exports an AreaPlugin; setup receives the services the
 * composition root hands it as plain arguments (no container import, no
 * decorators) and returns the capabilities it contributes, which must match
 * its manifest's list. What those services are is the composition root's
 * business (app/plugin-services.ts), not the kernel's.
 */
import type { AnyCapability } from './capability.js';

export interface AreaPlugin<Services> {
  setup(services: Services): AnyCapability[] | Promise<AnyCapability[]>;
  /** Job kinds the plugin runs in the background (async modes), by kind. */
  jobHandlers?(services: Services): Record<string, JobHandler>;
}

export interface JobHandlerContext {
  signal: AbortSignal;
  progress(p: { progress: number; total?: number; message?: string }): void;
}

export type JobHandler = (input: unknown, ctx: JobHandlerContext) => Promise<unknown>;
