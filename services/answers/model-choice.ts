/** Which LLM tier serves a request: the one preferred, else the other; null when none is configured. */
import type { LlmTiers } from '../llm/registry.js';
import type { LlmClient } from '../llm/types.js';

export type TierPreference = 'fast' | 'quality';

export function pickTier(tiers: Pick<LlmTiers, 'fast' | 'quality'>, preference: TierPreference): LlmClient | null {
  return preference === 'fast' ? (tiers.fast ?? tiers.quality) : (tiers.quality ?? tiers.fast);
}
