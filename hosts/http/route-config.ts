/**
 * What a capability's route tells the transport through fastify's route
 * config, for the hooks and parsers that run before the handler (key check,
 * body parsers): which path parameter carries a URL key, whether form bodies are accepted,
 * whether the same JSON body may be parsed once for many requests (the capability never changes its input),
 * and how its errors are answered when its wire format is another service's.
 */
import type { FastifyRequest } from 'fastify';
import type { CapabilityDefinition } from '../../core/capability.js';

export interface CapabilityRouteConfig {
  urlKeyParam?: string;
  formPost?: boolean;
  sharedBody?: boolean;
  /** The capability's own error answer (CapabilityDefinition.http.errorReply), used by the error handler. */
  errorReply?: CapabilityDefinition['http']['errorReply'];
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyContextConfig extends CapabilityRouteConfig {}
}

export function routeConfigOf(request: FastifyRequest): CapabilityRouteConfig {
  return request.routeOptions.config ?? {};
}
