import type { Depth } from '../../services/claims/check-claim.js';
import type { BenchClaim } from './dataset.js';
import type { Prediction } from './report.js';

export async function runEndpoint(_claims: BenchClaim[], _depth: Depth): Promise<Prediction[]> {
  throw new Error('not yet');
}
