/**
 * The `pattern` filter of URL discovery: a small glob language matched
 * against a URL's path+query (or the whole URL when it starts with "http").
 *
 * Matching runs in time linear in the URL's length, whatever the pattern:
 * the pattern becomes a nondeterministic automaton (brace alternatives are
 * branches, not expanded copies), simulated over the URL one character at a
 * time, and the sets of automaton states met are cached as a small
 * deterministic automaton, so after the first few URLs each character costs
 * one table lookup. No regex, no backtracking, no blow-up from
 * "{a,b}{a,b}…" or "*?*?*?…" (services/discover: docs/discover.md, limits).
 */
import { AppError } from '../../core/errors.js';

export const MAX_PATTERN_LENGTH = 500;
/** Cached deterministic states per pattern; past it, states are computed on the fly (still linear per character). */
const MAX_CACHED_STATES = 4096;

export type UrlMatcher = (url: URL) => boolean;

type Node =
  | { kind: 'char'; char: string; next: number }
  /** `?`: one character other than '/'. */
  | { kind: 'one'; next: number }
  /** `*` (any run without '/') and `**` (any run): loop on itself, or move on without consuming. */
  | { kind: 'star' | 'globstar'; next: number }
  | { kind: 'split'; next: number[] }
  | { kind: 'match' };

type Item =
  | { kind: 'char'; char: string }
  | { kind: 'one' }
  | { kind: 'star' }
  | { kind: 'globstar' }
  | { kind: 'slashGlobstarSlash' }
  | { kind: 'group'; alternatives: Item[][] };

/**
 * Compiles a pattern; throws AppError INVALID_INPUT naming `pattern` when it cannot be read. Blank means "everything".
 */
export function compileUrlPattern(pattern: string | undefined): UrlMatcher {
  const source = pattern?.trim() ?? '';
  if (source === '') return () => true;
  if (source.length > MAX_PATTERN_LENGTH) invalid(`is longer than ${MAX_PATTERN_LENGTH} characters`);
  const wholeUrl = /^http/i.test(source);
  // Path patterns always match text starting with '/', so "blog/**" means "/blog/**".
  const anchored = wholeUrl || /^[/*?{]/.test(source) ? source : `/${source}`;
  const automaton = new Automaton(parse(anchored));
  return (url) => automaton.matches(wholeUrl ? withoutFragment(url) : url.pathname + url.search);
}

function invalid(reason: string): never {
  throw new AppError('INVALID_INPUT', `pattern ${reason}`, { details: { field: 'pattern' } });
}

function withoutFragment(url: URL): string {
  return url.hash ? url.href.slice(0, -url.hash.length) : url.href;
}

/** Reads the pattern into items; braces nest, backslash escapes the next character. */
function parse(pattern: string): Item[] {
  let index = 0;
  const sequence = (insideGroup: boolean): Item[] => {
    const items: Item[] = [];
    while (index < pattern.length) {
      const char = pattern[index]!;
      if (insideGroup && (char === ',' || char === '}')) return items;
      index++;
      if (char === '\\') {
        const escaped = pattern[index++];
        if (escaped === undefined) invalid('ends with a lone "\\"');
        items.push({ kind: 'char', char: escaped });
      } else if (char === '*' && pattern[index] === '*') {
        while (pattern[index] === '*') index++;
        const previous = items.at(-1);
        if (previous?.kind === 'char' && previous.char === '/' && pattern[index] === '/') {
          items[items.length - 1] = { kind: 'slashGlobstarSlash' };
          index++;
        } else {
          items.push({ kind: 'globstar' });
        }
      } else if (char === '*') {
        items.push({ kind: 'star' });
      } else if (char === '?') {
        items.push({ kind: 'one' });
      } else if (char === '{') {
        const alternatives: Item[][] = [sequence(true)];
        while (pattern[index] === ',') {
          index++;
          alternatives.push(sequence(true));
        }
        if (pattern[index] !== '}') invalid('has a "{" without a matching "}"');
        index++;
        items.push({ kind: 'group', alternatives });
      } else if (char === '}') {
        invalid('has a "}" without a matching "{"');
      } else {
        items.push({ kind: 'char', char });
      }
    }
    return items;
  };
  return sequence(false);
}

class Automaton {
  private readonly nodes: Node[] = [];
  private readonly start: number;
  /** Character → class; characters the pattern never names share class 0, '/' has its own. */
  private readonly classOf = new Map<string, number>([['/', 1]]);
  private classCount = 2;
  /** Deterministic states: NFA state sets, their transitions by class, and whether they accept. */
  private readonly stateIds = new Map<string, number>();
  private readonly stateSets: number[][] = [];
  private readonly accepting: boolean[] = [];
  private readonly transitions: Array<Array<number | undefined>> = [];
  private readonly marks: Uint32Array;
  private generation = 0;

  constructor(items: Item[]) {
    const match = this.add({ kind: 'match' });
    this.start = this.compile(items, match);
    this.marks = new Uint32Array(this.nodes.length);
  }

  matches(subject: string): boolean {
    let set = this.closure([this.start]);
    let state: number | undefined = this.intern(set);
    for (let index = 0; index < subject.length; index++) {
      const char = subject[index]!;
      const charClass = this.classOf.get(char) ?? 0;
      if (state !== undefined) {
        const known = this.transitions[state]![charClass];
        if (known !== undefined) {
          state = known;
          set = this.stateSets[known]!;
          if (set.length === 0) return false;
          continue;
        }
      }
      const next = this.step(set, char);
      const nextState = this.intern(next);
      if (state !== undefined && nextState !== undefined) this.transitions[state]![charClass] = nextState;
      state = nextState;
      set = next;
      if (set.length === 0) return false;
    }
    return state !== undefined ? this.accepting[state]! : set.some((id) => this.nodes[id]!.kind === 'match');
  }

  private add(node: Node): number {
    this.nodes.push(node);
    return this.nodes.length - 1;
  }

  /** Builds the items right to left; returns the entry node. */
  private compile(items: Item[], next: number): number {
    let entry = next;
    for (let index = items.length - 1; index >= 0; index--) entry = this.compileItem(items[index]!, entry);
    return entry;
  }

  private compileItem(item: Item, next: number): number {
    switch (item.kind) {
      case 'char':
        if (!this.classOf.has(item.char)) this.classOf.set(item.char, this.classCount++);
        return this.add({ kind: 'char', char: item.char, next });
      case 'one':
        return this.add({ kind: 'one', next });
      case 'star':
      case 'globstar':
        return this.add({ kind: item.kind, next });
      case 'slashGlobstarSlash': {
        // "/**/": a '/' alone, or '/', anything, '/'.
        const deeper = this.add({ kind: 'globstar', next: this.compileItem({ kind: 'char', char: '/' }, next) });
        return this.compileItem({ kind: 'char', char: '/' }, this.add({ kind: 'split', next: [next, deeper] }));
      }
      case 'group':
        return this.add({
          kind: 'split',
          next: item.alternatives.map((alternative) => this.compile(alternative, next)),
        });
    }
  }

  /** The states reachable from `from` without consuming, sorted. */
  private closure(from: number[]): number[] {
    const generation = ++this.generation;
    const out: number[] = [];
    const pending = [...from];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (this.marks[id] === generation) continue;
      this.marks[id] = generation;
      out.push(id);
      const node = this.nodes[id]!;
      if (node.kind === 'split') for (const target of node.next) pending.push(target);
      else if (node.kind === 'star' || node.kind === 'globstar') pending.push(node.next);
    }
    return out.sort((a, b) => a - b);
  }

  private step(set: number[], char: string): number[] {
    const targets: number[] = [];
    for (const id of set) {
      const node = this.nodes[id]!;
      switch (node.kind) {
        case 'char':
          if (node.char === char) targets.push(node.next);
          break;
        case 'one':
          if (char !== '/') targets.push(node.next);
          break;
        // A star stays where it is on a character it accepts.
        case 'star':
          if (char !== '/') targets.push(id);
          break;
        case 'globstar':
          targets.push(id);
          break;
        default:
          break;
      }
    }
    return targets.length === 0 ? [] : this.closure(targets);
  }

  /** The deterministic state for a set, created while the cache has room; undefined past it. */
  private intern(set: number[]): number | undefined {
    const key = set.join(',');
    const known = this.stateIds.get(key);
    if (known !== undefined) return known;
    if (this.stateSets.length >= MAX_CACHED_STATES) return undefined;
    const id = this.stateSets.length;
    this.stateIds.set(key, id);
    this.stateSets.push(set);
    this.accepting.push(set.some((node) => this.nodes[node]!.kind === 'match'));
    this.transitions.push([]);
    return id;
  }
}
