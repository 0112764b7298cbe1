/** At most `limit` requests in flight per hostname, queued fairly. */
import { Semaphore } from './semaphore.js';

export class HostLimiter {
  private readonly hosts = new Map<string, Semaphore>();

  constructor(private readonly limit: number) {}

  async acquire(hostname: string, signal?: AbortSignal): Promise<() => void> {
    const key = hostname.toLowerCase();
    let semaphore = this.hosts.get(key);
    if (!semaphore) {
      semaphore = new Semaphore(this.limit);
      this.hosts.set(key, semaphore);
    }
    const owner = semaphore;
    try {
      const release = await owner.acquire(signal);
      return () => {
        release();
        this.forgetIfIdle(key, owner);
      };
    } catch (error) {
      this.forgetIfIdle(key, owner);
      throw error;
    }
  }

  /** Hosts with requests running or queued (for stats and tests). */
  activeHosts(): number {
    return this.hosts.size;
  }

  // Drop idle semaphores so a long crawl over many hosts does not grow the map forever.
  private forgetIfIdle(key: string, semaphore: Semaphore): void {
    if (semaphore.idle() && this.hosts.get(key) === semaphore) this.hosts.delete(key);
  }
}
