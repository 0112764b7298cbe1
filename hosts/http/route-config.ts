/**
 * What a capability's route tells the transport through fastify's route
 * config, for the hooks and parsers that run before the handler (key check,
 * body parsers): which path parameter carries a URL key, whether form bodies are accepted,
 * whether the same JSON body may be parsed once for many requests (the capability never changes its input).
 */
import type { FastifyRequest } from 'fastify';

export interface CapabilityRouteConfig {
  urlKeyParam?: string;
  formPost?: boolean;
  sharedBody?: boolean;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyContextConfig extends CapabilityRouteConfig {}
}

export function routeConfigOf(request: FastifyRequest): CapabilityRouteConfig {
  return request.routeOptions.config ?? {};
}
