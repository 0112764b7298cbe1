/**
 * What this installation offers (browser found, models in use, LLM
 * configured, engines enabled, storage backend). Plugins add their own
 * entries; GET /api/v1/enhanced/features serves the registry.
 */

export interface Feature {
  available: boolean;
  /** One line a person can act on, e.g. why something is unavailable. */
  detail: string;
  /** Anything else worth showing (paths, model names, counts). */
  info?: Record<string, unknown>;
}

export class FeatureRegistry {
  private readonly features = new Map<string, Feature | (() => Feature)>();

  /** Registers a feature, or a function computing it when asked (for live state). */
  set(name: string, feature: Feature | (() => Feature)): void {
    this.features.set(name, feature);
  }

  get(name: string): Feature | undefined {
    const entry = this.features.get(name);
    return typeof entry === 'function' ? entry() : entry;
  }

  list(): Record<string, Feature> {
    const out: Record<string, Feature> = {};
    for (const name of [...this.features.keys()].sort()) out[name] = this.get(name)!;
    return out;
  }
}
