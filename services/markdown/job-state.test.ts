import { describe, expect, it } from 'vitest';
import { markdownProblems } from '../../test/sandbox/markdown-safety.js';
import { renderJobState } from './job-state.js';

describe('renderJobState', () => {
  it('keeps hostile progress and error text inline and inert', () => {
    const line = renderJobState('Research', {
      job_id: 'j1',
      status: 'failed',
      progress: { message: 'reading <script>alert(1)</script>\n# heading' },
      error: { message: '[click](javascript:alert(1))' },
    });
    expect(line.startsWith('Research j1: failed — ')).toBe(true);
    expect(line).not.toContain('\n');
    expect(markdownProblems(line, [])).toEqual([]);
  });

  it('is just the state when there is nothing to add', () => {
    expect(renderJobState('Job', { job_id: 'j2', status: 'queued', progress: null, error: null })).toBe(
      'Job j2: queued',
    );
  });
});
