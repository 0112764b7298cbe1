/**
 * A crawl's or batch scrape's `webhook`, as Firecrawl sends it: events
 * `<crawl|batch_scrape>.started`, `.page` (one per document), `.completed` and
 * `.failed`, each `{success, type, id, data, metadata, error?, webhookId}`
 * with the caller's headers and `X-Firecrawl-Signature: sha256=<hex HMAC of
 * the body>`. Delivered by the one webhook service (services/webhooks:
 * durable, retried, Standard Webhooks headers too); each event's message id
 * is derived from the job, so a run repeated after a crash sends it once.
 */
import type { WebhookDeliveries } from '../../services/webhooks/webhook-deliveries.js';
import type { WebhookInput } from './crawl-schema.js';
import type { FirecrawlDocument } from './scrape-schema.js';

export type WebhookEvent = 'started' | 'page' | 'completed' | 'failed';
export type PagesKindName = 'crawl' | 'batch_scrape';

export const FIRECRAWL_SIGNATURE_HEADER = 'X-Firecrawl-Signature';

interface WebhookTarget {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  events: Set<WebhookEvent>;
}

export function webhookUrlOf(webhook: WebhookInput | undefined): string | undefined {
  return typeof webhook === 'string' ? webhook : webhook?.url;
}

export class JobWebhook {
  private constructor(
    private readonly deliveries: WebhookDeliveries,
    private readonly target: WebhookTarget,
    private readonly kind: PagesKindName,
    private readonly jobId: string,
  ) {}

  /** The job's webhook, or null when the request asked for none. */
  static of(
    deliveries: WebhookDeliveries,
    webhook: WebhookInput | undefined,
    kind: PagesKindName,
    jobId: string,
  ): JobWebhook | null {
    if (webhook === undefined) return null;
    const target: WebhookTarget =
      typeof webhook === 'string'
        ? { url: webhook, headers: {}, metadata: {}, events: new Set(['started', 'page', 'completed', 'failed']) }
        : {
            url: webhook.url,
            headers: webhook.headers ?? {},
            metadata: webhook.metadata ?? {},
            events: new Set(webhook.events ?? ['started', 'page', 'completed', 'failed']),
          };
    return new JobWebhook(deliveries, target, kind, jobId);
  }

  started(): Promise<void> {
    return this.send('started', 'started', []);
  }

  page(index: number, document: FirecrawlDocument): Promise<void> {
    return this.send('page', `page.${index}`, [document]);
  }

  completed(): Promise<void> {
    return this.send('completed', 'completed', []);
  }

  failed(message: string): Promise<void> {
    return this.send('failed', 'failed', [], message);
  }

  private async send(event: WebhookEvent, key: string, data: unknown[], error?: string): Promise<void> {
    if (!this.target.events.has(event)) return;
    const webhookId = `${this.jobId}.${key}`;
    const body = JSON.stringify({
      success: event !== 'failed',
      type: `${this.kind}.${event}`,
      id: this.jobId,
      data,
      metadata: this.target.metadata,
      ...(error !== undefined ? { error } : {}),
      webhookId,
    });
    await this.deliveries.enqueue({
      id: webhookId,
      url: this.target.url,
      body,
      headers: this.target.headers,
      bodySignatureHeader: FIRECRAWL_SIGNATURE_HEADER,
    });
  }
}

/**
 * Runs the job between its `started` and its `completed` or `failed` event. A run stopped by its signal
 * (cancelled, or handed back at shutdown to run again) sends neither: Firecrawl has no cancelled event.
 */
export async function withWebhookEvents<T>(
  hook: JobWebhook | null,
  signal: AbortSignal,
  run: () => Promise<T>,
): Promise<T> {
  if (!hook) return run();
  await hook.started();
  let result: T;
  try {
    result = await run();
  } catch (error) {
    if (!signal.aborted) await hook.failed(error instanceof Error ? error.message : String(error));
    throw error;
  }
  await hook.completed();
  return result;
}
