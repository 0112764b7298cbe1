import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Every log line goes to stderr: stdout carries the MCP protocol and CLI output.
 */
export function createLogger(level: string = process.env.QUARRY_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'quarry' } }, pino.destination({ fd: 2, sync: false }));
}

/** A logger that drops everything, for unit tests of pure parts. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
