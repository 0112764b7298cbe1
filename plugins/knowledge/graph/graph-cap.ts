/**
 * The cap on a graph's entities (quotas.graphEntities per principal),
 * enforced in the backend's commit — atomically with the write — so neither
 * one large extraction nor several at once can take a graph past it. A write
 * that would is refused whole: a graph with some of an extraction's entities
 * and not others would hold relations cut off at one end, and a caller told
 * "refused, nothing stored" knows where it stands.
 */
import type { GraphWrite } from './types.js';

/** A write refused because the graph would hold more than `max` entities. */
export class GraphCapReached extends Error {
  constructor(
    readonly max: number,
    readonly stored: number,
    readonly adding: number,
  ) {
    super(`the graph holds ${stored} of at most ${max} entities; the write would add ${adding}`);
    this.name = 'GraphCapReached';
  }
}

/** Entities the write adds to the graph: those it creates (expected absent) less those it deletes. */
export function entityGrowth(write: GraphWrite): number {
  const created = write.putEntities.filter((entity) => write.expectEntities.get(entity.id) === null).length;
  return created - write.deleteEntities.length;
}

/** Throws GraphCapReached when the write, applied to a graph of `stored` entities, would pass its cap. */
export function assertWithinCap(write: GraphWrite, stored: number): void {
  const growth = entityGrowth(write);
  if (write.maxEntities !== undefined && growth > 0 && stored + growth > write.maxEntities)
    throw new GraphCapReached(write.maxEntities, stored, growth);
}
