/**
 * Which methods each registered path answers, so a request with the wrong
 * method gets 405 with an Allow header instead of 404, and which error answer
 * a path's routes speak (a route's errorReply), for failures met before a
 * route is chosen (an over-long path parameter). Filled from fastify's
 * onRoute hook, so every route counts, whoever registers it. Paths are
 * compared without a trailing slash, as the router serves both forms.
 */
import type { CapabilityRouteConfig } from './route-config.js';

type ErrorReply = NonNullable<CapabilityRouteConfig['errorReply']>;

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

interface RoutePattern {
  /** Path segments; ":name" matches any one non-empty segment. */
  segments: string[];
  /** For "/prefix/*" routes: the literal prefix any path may extend. */
  prefix: string | null;
  methods: Set<string>;
  errorReply?: ErrorReply;
}

export class RouteMethods {
  private readonly patterns = new Map<string, RoutePattern>();

  add(methods: string | string[], route: string, errorReply?: ErrorReply): void {
    const url = route.endsWith('*') ? route : withoutTrailingSlash(route);
    let pattern = this.patterns.get(url);
    if (!pattern) {
      pattern = url.endsWith('*')
        ? { segments: [], prefix: url.slice(0, -1), methods: new Set() }
        : { segments: url.split('/'), prefix: null, methods: new Set() };
      this.patterns.set(url, pattern);
    }
    for (const method of Array.isArray(methods) ? methods : [methods]) pattern.methods.add(method.toUpperCase());
    if (errorReply) pattern.errorReply = errorReply;
  }

  /** The error answer of the routes at this path, when they declare their own. */
  errorReplyAt(requested: string): ErrorReply | undefined {
    const path = withoutTrailingSlash(requested);
    const segments = path.split('/');
    for (const pattern of this.patterns.values())
      if (pattern.errorReply && matches(pattern, path, segments)) return pattern.errorReply;
    return undefined;
  }

  /** Methods some route answers at this path, sorted; empty when no route has the path at all. */
  allowedAt(requested: string): string[] {
    const path = withoutTrailingSlash(requested);
    const segments = path.split('/');
    const allowed = new Set<string>();
    for (const pattern of this.patterns.values()) {
      if (matches(pattern, path, segments)) for (const method of pattern.methods) allowed.add(method);
    }
    return [...allowed].sort();
  }
}

function matches(pattern: RoutePattern, path: string, segments: string[]): boolean {
  if (pattern.prefix !== null) return path.startsWith(pattern.prefix);
  if (segments.length !== pattern.segments.length) return false;
  return pattern.segments.every((expected, index) =>
    expected.startsWith(':') ? segments[index] !== '' : expected === segments[index],
  );
}
