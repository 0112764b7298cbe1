/** The shared services the verify area uses: the list its manifest declares ("uses") and the type its code receives. */
import type { ServicesOf } from '../../app/plugin-services.js';
import type { CredibilityService } from './credibility/credibility-service.js';

export const VERIFY_USES = [
  'config',
  'engines',
  'jobs',
  'llm',
  'logger',
  'models',
  'semantic',
  'stores',
  'webSearch',
] as const;

/** What the area's code works with: the declared shared services and what the area owns (built in open()). */
export type VerifyServices = ServicesOf<(typeof VERIFY_USES)[number]> & {
  /** Source credibility from published ratings and documented rules. */
  credibility: CredibilityService;
};
