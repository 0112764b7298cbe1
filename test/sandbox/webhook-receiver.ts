/**
 * Records webhook deliveries per hook name, answers them with a configurable
 * status (optionally failing the first N), and lets tests wait for them.
 */

export interface WebhookDelivery {
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
  /** The status the sandbox answered this delivery with; 0 when it never answered (hang). */
  status: number;
}

interface Waiter {
  name: string;
  count: number;
  resolve: (deliveries: WebhookDelivery[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class WebhookReceiver {
  private readonly received = new Map<string, WebhookDelivery[]>();
  private readonly failuresLeft = new Map<string, number>();
  private readonly statuses = new Map<string, number>();
  private readonly hangsLeft = new Map<string, number>();
  private readonly waiters = new Set<Waiter>();

  setFailures(name: string, failFirstN: number): void {
    this.failuresLeft.set(name, failFirstN);
  }

  setStatus(name: string, status: number): void {
    this.statuses.set(name, status);
  }

  setHang(name: string, hangFirstN: number): void {
    this.hangsLeft.set(name, hangFirstN);
  }

  /** Records a delivery and returns the status to answer it with, or 'hang' (never answer). */
  receive(name: string, headers: Record<string, string>, body: string): number | 'hang' {
    const hangs = this.hangsLeft.get(name) ?? 0;
    if (hangs > 0) this.hangsLeft.set(name, hangs - 1);
    const failures = hangs > 0 ? 0 : (this.failuresLeft.get(name) ?? 0);
    if (failures > 0) this.failuresLeft.set(name, failures - 1);
    const status = hangs > 0 ? 'hang' : failures > 0 ? 500 : (this.statuses.get(name) ?? 200);
    const list = this.received.get(name) ?? [];
    list.push({ headers, body, receivedAt: Date.now(), status: status === 'hang' ? 0 : status });
    this.received.set(name, list);
    this.settleWaiters();
    return status;
  }

  deliveries(name: string): WebhookDelivery[] {
    return [...(this.received.get(name) ?? [])];
  }

  /** Resolves once `count` deliveries (failed ones included) have arrived. */
  waitFor(name: string, count: number, timeoutMs: number): Promise<WebhookDelivery[]> {
    const current = this.deliveries(name);
    if (current.length >= count) return Promise.resolve(current);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        name,
        count,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(
            new Error(
              `sandbox web: waited ${timeoutMs} ms for ${count} deliveries to hook "${name}", got ${this.deliveries(name).length}`,
            ),
          );
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  rejectAll(reason: string): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(reason));
    }
    this.waiters.clear();
  }

  private settleWaiters(): void {
    for (const waiter of this.waiters) {
      const current = this.deliveries(waiter.name);
      if (current.length < waiter.count) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(current);
    }
  }
}
