/**
 * The crawl's pending URLs: first in, first out (breadth-first), or best
 * first when the caller ranks links, ties going to the URL found first so the
 * order stays deterministic. A heap keeps taking the best one cheap on a
 * large frontier.
 */
import TinyQueue from 'tinyqueue';

export interface Frontier<T> {
  add(item: T, priority: number): void;
  /** The next item to work on, or undefined when none is pending. */
  next(): T | undefined;
}

export function fifoFrontier<T>(items: T[] = []): Frontier<T> {
  let cursor = 0;
  return {
    add: (item) => void items.push(item),
    next: () => (cursor < items.length ? items[cursor++] : undefined),
  };
}

interface Ranked<T> {
  item: T;
  priority: number;
  order: number;
}

export function bestFirstFrontier<T>(): Frontier<T> {
  const heap = new TinyQueue<Ranked<T>>([], (a, b) => b.priority - a.priority || a.order - b.order);
  let added = 0;
  return {
    add: (item, priority) => heap.push({ item, priority, order: added++ }),
    next: () => heap.pop()?.item,
  };
}
