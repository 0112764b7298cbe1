/**
 * Markdown renderings of the Verify API's answers, for agents: page and claim text escaped, evidence through the one
 * source list.
 */
import type { z } from 'zod';
import { escapeMarkdownText as text, inlineText, type LinkPolicy } from '../../services/markdown/escape.js';
import { renderJobState } from '../../services/markdown/job-state.js';
import { renderSourceList } from '../../services/markdown/source-list.js';
import type { BatchAnswer, ClaimAnswer, sourceOutputSchema } from './schemas.js';

const VERDICT_TEXT: Record<ClaimAnswer['verdict'], string> = {
  true: 'TRUE',
  false: 'FALSE',
  partially_true: 'PARTIALLY TRUE',
  unverifiable: 'UNVERIFIABLE',
  misleading: 'MISLEADING',
};

export function claimMarkdown(out: ClaimAnswer, policy: LinkPolicy): string {
  const evidence = (title: string, items: ClaimAnswer['supporting_evidence']) =>
    items.length === 0
      ? []
      : [
          `\n## ${title}`,
          ...renderSourceList(
            items.map((e) => ({
              title: e.title,
              url: e.url,
              details: [`credibility ${e.credibility_score}`, `on "${e.fact}"`],
              excerpt: e.snippet,
            })),
            { policy, marker: 'bullet', excerptChars: 600 },
          ),
        ];
  return [
    `# ${VERDICT_TEXT[out.verdict]} (confidence ${out.confidence})`,
    `Claim: ${inlineText(out.claim)}`,
    '',
    text(out.summary),
    '\n## Facts',
    ...out.key_facts.map((f) => `- ${inlineText(f)}`),
    ...evidence('Supporting evidence', out.supporting_evidence),
    ...evidence('Contradicting evidence', out.contradicting_evidence),
    out.nuances ? `\n## Nuances\n${text(out.nuances)}` : '',
    `\n${out.sources_checked} sources checked in ${out.verification_time_ms} ms; judged by ${text(out.model_used)}.${out.engines_failed.length ? ` Engines failed: ${text(out.engines_failed.join(', '))}.` : ''}`,
  ]
    .filter((line) => line !== '')
    .join('\n');
}

export function sourceMarkdown(out: z.infer<typeof sourceOutputSchema>): string {
  return [
    `# ${inlineText(out.domain)}: credibility ${out.credibility_score}${out.rated ? '' : ' (rules, not a published rating)'}`,
    `- category: ${out.category}`,
    `- factual reporting: ${out.factual_reporting}`,
    `- bias: ${out.bias_rating}`,
    `- data of: ${out.last_updated}`,
    '',
    text(out.notes),
  ].join('\n');
}

export function batchMarkdown(out: BatchAnswer): string {
  return [
    // The one job-state line; the failure stays on a line of its own below, with its code.
    `# ${renderJobState('Verification batch', { job_id: out.job_id, status: out.status })} (${out.claims_completed} of ${out.claims_count} claims)`,
    ...out.results.map(
      (r, i) =>
        `${i + 1}. **${VERDICT_TEXT[r.verdict]}** (${r.confidence}) ${inlineText(r.claim)}\n   ${inlineText(r.summary)}`,
    ),
    out.status === 'processing' ? `\nPoll ${out.poll_url} (tool verify_batch_status) for the rest.` : '',
    out.error ? `\nThe job failed: ${out.error.code}: ${inlineText(out.error.message)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
