import { inlineText } from './escape.js';

/** What every job view shares: its id, state, and the latest progress or error message. */
export interface JobStateView {
  job_id: string;
  status: string;
  progress?: { message?: string } | null;
  error?: { message: string } | null;
}

/** One line for a job that has no result yet; progress and error messages may quote queries and pages. */
export function renderJobState(label: string, out: JobStateView): string {
  const progress = out.progress?.message ? ` — ${inlineText(out.progress.message)}` : '';
  const error = out.error ? ` — ${inlineText(out.error.message)}` : '';
  return `${label} ${out.job_id}: ${out.status}${progress}${error}`;
}

/** One line for a job just accepted: its id and where to poll it (with its status where the answer carries one). */
export function renderJobAccepted(label: string, out: { job_id: string; status_url: string; status?: string }): string {
  const status = out.status ? `${out.status}; ` : '';
  return `${label} accepted: ${out.job_id} (${status}poll ${out.status_url})`;
}
