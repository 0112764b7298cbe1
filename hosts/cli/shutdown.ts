/** Stopping a host gracefully on SIGTERM or SIGINT, for quarry serve and quarry mcp. */
import type { QuarryApp } from '../../app/create-quarry.js';

/** Past the grace period, what closing pools and stores may take before the process exits anyway. */
const CLOSE_MARGIN_MS = 10_000;

/** shutdownDrainMs, or 2 s when several instances may sit behind a load balancer (Redis), else 0. */
export function drainDelayMs(app: QuarryApp): number {
  return app.config.shutdownDrainMs ?? (app.config.redisUrl ? 2000 : 0);
}

/**
 * On SIGTERM or SIGINT: stop taking jobs, and let the host drain (HTTP:
 * health checks fail first, then it stops listening); running requests and
 * jobs get the grace period to finish, jobs still running are handed back
 * (another instance or the next start runs them); close; exit.
 */
export function onShutdown(app: QuarryApp, stopHost: (graceMs: number) => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    const graceMs = app.config.shutdownGraceMs;
    const drainMs = drainDelayMs(app);
    app.logger.info({ signal, graceMs, drainMs }, 'shutting down');
    const force = setTimeout(() => process.exit(1), drainMs + graceMs + CLOSE_MARGIN_MS);
    force.unref();
    Promise.all([stopHost(graceMs), app.stopJobs(graceMs)])
      .then(() => app.close())
      .catch((error: unknown) => app.logger.error({ err: error }, 'error during shutdown'))
      .finally(() => {
        clearTimeout(force);
        process.exit(0);
      });
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
