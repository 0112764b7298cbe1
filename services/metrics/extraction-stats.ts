/**
 * Extraction's own figures for GET /enhanced/performance: pages extracted,
 * pages/s over the last minute and since start, time per page, and why pages
 * failed (captcha, consent_wall, empty, ...), counted by reason.
 */
import { roundTo } from '../../core/rounding.js';

const WINDOW_MS = 60_000;

export interface ExtractionFigures {
  pages: number;
  succeeded: number;
  failed: number;
  failure_reasons: Record<string, number>;
  pages_per_second_last_minute: number;
  mean_ms_per_page: number;
  /** Pages per second of extraction work on one worker (1000 / mean ms). */
  pages_per_second_per_worker: number;
}

export class ExtractionStats {
  private pages = 0;
  private succeeded = 0;
  private totalMs = 0;
  private readonly reasons = new Map<string, number>();
  private readonly recent: number[] = [];

  record(success: boolean, failureReason: string | undefined, durationMs: number, now = Date.now()): void {
    this.pages++;
    this.totalMs += durationMs;
    if (success) this.succeeded++;
    else {
      const reason = failureReason ?? 'unknown';
      this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
    }
    this.recent.push(now);
    while (this.recent.length > 0 && this.recent[0]! < now - WINDOW_MS) this.recent.shift();
  }

  figures(now = Date.now()): ExtractionFigures {
    while (this.recent.length > 0 && this.recent[0]! < now - WINDOW_MS) this.recent.shift();
    const mean = this.pages === 0 ? 0 : this.totalMs / this.pages;
    return {
      pages: this.pages,
      succeeded: this.succeeded,
      failed: this.pages - this.succeeded,
      failure_reasons: Object.fromEntries([...this.reasons].sort((a, b) => b[1] - a[1])),
      pages_per_second_last_minute: roundTo(this.recent.length / (WINDOW_MS / 1000), 2),
      mean_ms_per_page: roundTo(mean, 1),
      pages_per_second_per_worker: mean === 0 ? 0 : roundTo(1000 / mean, 1),
    };
  }
}
