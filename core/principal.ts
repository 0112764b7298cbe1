/**
 * Who a call acts for, as durable resources are owned: every monitor, corpus,
 * job, graph and search history belongs to the principal that created it, and
 * another principal finds it as if it did not exist. The owner id is stored in
 * the record itself, so every instance on one Redis enforces it alike.
 */
import { AppError } from './errors.js';

/** A caller as resources are owned. */
export interface Principal {
  /**
   * Resources are stored under this id: `key:<digest>` for an API key (never
   * the key itself), `group:<name>` for keys configured as one team, `local`
   * for the stdio MCP host.
   */
  id: string;
  /** Operators: sees and changes every owner's resources, including those made before ownership existed. */
  admin: boolean;
}

/** The stdio MCP host: the machine's owner, so an admin. */
export const LOCAL_PRINCIPAL: Principal = Object.freeze({ id: 'local', admin: true });

/**
 * Whether `viewer` may see or change a resource owned by `ownerId`. A resource
 * without an owner (made before ownership existed) is the admins' alone; a
 * call without a principal sees nothing owned.
 */
export function mayAccess(viewer: Principal | undefined, ownerId: string | null | undefined): boolean {
  if (!viewer) return false;
  return viewer.admin || (typeof ownerId === 'string' && ownerId === viewer.id);
}

/**
 * QUOTA_EXCEEDED naming the cap, its value and the setting that raises it; `more` says what the refused call would have
 * done.
 */
export function quotaExceeded(
  what: string,
  max: number,
  setting: string,
  more?: { message: string; details: Record<string, unknown> },
): AppError {
  const message = `quota exceeded: at most ${max} ${what} per API key (${setting})${more ? `; ${more.message}` : ''}`;
  return new AppError('QUOTA_EXCEEDED', message, { details: { limit: setting, max, ...more?.details } });
}
