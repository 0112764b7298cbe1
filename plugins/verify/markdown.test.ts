import { describe, expect, it } from 'vitest';
import { batchMarkdown } from './markdown.js';

const batch = {
  job_id: 'job_0123456789abcdef01234567',
  claims_count: 2,
  poll_url: '/api/v1/verify/batch/job_0123456789abcdef01234567',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
};

describe('verify batch markdown', () => {
  it('heads with the job-state line and the claims done, then each verdict', () => {
    const md = batchMarkdown({
      ...batch,
      status: 'processing',
      claims_completed: 1,
      results: [{ claim: 'Water boils at *100* °C', verdict: 'true', confidence: 0.9, summary: 'At sea level.' }],
    });
    expect(md.split('\n')).toEqual([
      '# Verification batch job_0123456789abcdef01234567: processing (1 of 2 claims)',
      '1. **TRUE** (0.9) Water boils at \\*100\\* °C',
      '   At sea level.',
      '',
      'Poll /api/v1/verify/batch/job_0123456789abcdef01234567 (tool verify_batch_status) for the rest.',
    ]);
  });

  it('says why a failed job failed, with its code, below the state line', () => {
    const md = batchMarkdown({
      ...batch,
      status: 'failed',
      claims_completed: 0,
      results: [],
      error: { code: 'TIMEOUT', message: 'the job ran <out> of time' },
    });
    expect(md).toBe(
      '# Verification batch job_0123456789abcdef01234567: failed (0 of 2 claims)\n\nThe job failed: TIMEOUT: ' +
        'the job ran &lt;out&gt; of time',
    );
  });
});
