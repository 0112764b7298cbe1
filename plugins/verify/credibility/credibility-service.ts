/**
 * Source credibility: a domain's published ratings (the bundled Lin et al.
 * 2023 pc1, and rating files the installation supplies), its category from
 * the ratings and the public suffix list, and for domains no set covers a
 * score from documented rules, marked as such. Subdomains fall back to
 * their registrable domain.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { CODE_ROOT } from '../../../core/paths.js';
import type { CredibilityConfig } from './config.js';
import { domainParts, lookupChain } from './domain.js';
import { FACTUAL_SCORE, type BiasRating, type FactualReporting, type SourceCategory } from './labels.js';
import { LIN_2023, LIN_2023_DATE, loadRatingsFile, loadRatingsText, type DomainRating } from './ratings.js';
import { categoryFromHost, RULE_SCORES } from './rules.js';
import { roundConfidence as round } from '../../../core/rounding.js';

export const BUNDLED_RATINGS_FILE = join(
  CODE_ROOT,
  'plugins',
  'verify',
  'credibility',
  'data',
  'lin2023-domain-pc1.csv',
);

export interface SourceCredibility {
  domain: string;
  credibility_score: number;
  category: SourceCategory;
  bias_rating: BiasRating;
  factual_reporting: FactualReporting;
  notes: string;
  last_updated: string;
  /** Extension: true when a published rating set covers the domain; false means every value comes from rules. */
  rated: boolean;
  /**
   * Extension: the name a rating was found under (the domain itself, or the registrable domain a subdomain fell back
   * to).
   */
  matched_domain: string | null;
}

export class CredibilityService {
  private ratings: Map<string, DomainRating> | null = null;

  constructor(
    private readonly config: CredibilityConfig,
    private readonly logger: Logger,
  ) {}

  /**
   * Loads the rating files (once; also done lazily by the first lookup). Bad files stop start-up with the file named.
   */
  load(): Map<string, DomainRating> {
    if (this.ratings) return this.ratings;
    const ratings = new Map<string, DomainRating>();
    if (this.config.bundledRatings) {
      loadRatingsText(
        readFileSync(BUNDLED_RATINGS_FILE, 'utf8'),
        { ...LIN_2023, date: LIN_2023_DATE },
        ratings,
        BUNDLED_RATINGS_FILE,
      );
    }
    for (const entry of this.config.ratingsFiles) {
      const { path, date } = typeof entry === 'string' ? { path: entry, date: undefined } : entry;
      const rows = loadRatingsFile(path, date, ratings);
      this.logger.info({ path, rows }, 'credibility ratings loaded');
    }
    this.ratings = ratings;
    return ratings;
  }

  /** Number of rated domains loaded. */
  size(): number {
    return this.load().size;
  }

  /** The credibility of the source at a URL (or a bare host name). */
  rate(urlOrHost: string): SourceCredibility {
    const parts = domainParts(urlOrHost);
    if (!parts.host) throw new AppError('INVALID_INPUT', 'url: has no host name');
    const ratings = this.load();
    const matched = lookupKeys(urlOrHost, lookupChain(parts)).find((name) => ratings.has(name)) ?? null;
    const rating = matched ? ratings.get(matched)! : null;
    const hostRule = categoryFromHost(parts);
    const domain = parts.registrable ?? parts.host;
    const notes: string[] = [];
    if (matched && matched !== parts.host)
      notes.push(`No rating for ${parts.host}; using its registrable domain ${matched}.`);

    if (rating && (rating.pc1 || rating.factual || rating.bias)) {
      let score: number;
      if (rating.pc1) {
        score = rating.pc1.value;
        notes.push(`Score ${round(score)}: pc1 of ${rating.pc1.from.citation}.`);
      } else {
        score = FACTUAL_SCORE[rating.factual!.value];
        notes.push(
          `Score ${score}: the band of factual reporting "${rating.factual!.value}" (no pc1 for this domain).`,
        );
      }
      if (rating.factual) notes.push(`Factual reporting "${rating.factual.value}": ${rating.factual.from.citation}.`);
      else notes.push('Factual reporting unknown: no loaded rating set labels it.');
      if (rating.bias) notes.push(`Bias "${rating.bias.value}": ${rating.bias.from.citation}.`);
      else notes.push('Bias unknown: no loaded rating set labels it.');
      const category: SourceCategory = hostRule?.category ?? 'news';
      notes.push(
        hostRule ? `Category "${category}": ${hostRule.reason}.` : 'Category "news": rated by news-source rating sets.',
      );
      const dates = [rating.pc1?.from.date, rating.factual?.from.date, rating.bias?.from.date].filter(
        (d): d is string => d !== undefined,
      );
      return {
        domain,
        credibility_score: round(score),
        category,
        bias_rating: rating.bias?.value ?? 'unknown',
        factual_reporting: rating.factual?.value ?? 'unknown',
        notes: notes.join(' '),
        last_updated: dates.sort().at(-1)!,
        rated: true,
        matched_domain: matched,
      };
    }

    const category: SourceCategory = hostRule?.category ?? 'unknown';
    const score = RULE_SCORES[category];
    notes.push(
      `Not rated by any loaded rating set: every value comes from rules, not ratings. ` +
        (hostRule
          ? `Category "${category}": ${hostRule.reason}; score ${score} for that category.`
          : `No rule applies; neutral score ${score}.`),
    );
    return {
      domain,
      credibility_score: score,
      category,
      bias_rating: 'unknown',
      factual_reporting: 'unknown',
      notes: notes.join(' '),
      last_updated: new Date().toISOString(),
      rated: false,
      matched_domain: null,
    };
  }
}

/**
 * Section keys first (host + leading path segments, for sets that rate rfi.fr/en), then each host name of the chain.
 */
function lookupKeys(urlOrHost: string, chain: string[]): string[] {
  let segments: string[] = [];
  try {
    segments = new URL(urlOrHost).pathname.toLowerCase().split('/').filter(Boolean).slice(0, 2);
  } catch {
    // a bare host name has no path
  }
  const keys: string[] = [];
  for (const name of chain) {
    for (let n = segments.length; n > 0; n--) keys.push(`${name}/${segments.slice(0, n).join('/')}`);
    keys.push(name);
  }
  return keys;
}
