import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../core/logger.js';
import { credibilityConfigSchema } from './config.js';
import { CredibilityService } from './credibility-service.js';
import { domainParts, lookupChain } from './domain.js';

const HANDMADE_MBFC = join(import.meta.dirname, 'fixtures', 'handmade-mbfc.tsv');
const scratch = mkdtempSync(join(tmpdir(), 'quarry-cred-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function service(config: Record<string, unknown> = {}): CredibilityService {
  return new CredibilityService(credibilityConfigSchema.parse(config), silentLogger());
}

describe('domain names', () => {
  it('falls back from subdomains to the registrable domain, never past a shared host', () => {
    expect(lookupChain(domainParts('https://www.news.bbc.co.uk/x'))).toEqual(['news.bbc.co.uk', 'bbc.co.uk']);
    expect(lookupChain(domainParts('https://somebody.blogspot.com/post'))).toEqual(['somebody.blogspot.com']);
    expect(domainParts('https://somebody.blogspot.com').userHosted).toBe(true);
    expect(lookupChain(domainParts('http://127.0.0.1:8080/page'))).toEqual(['127.0.0.1']);
  });
});

describe('published ratings (bundled Lin et al. 2023 pc1, real rows)', () => {
  const credibility = service();

  it('loads all 11,520 rows (11,518 domains: two are listed with and without "www.")', () => {
    expect(credibility.size()).toBe(11_518);
  });

  it('answers a rated domain with its published pc1 and says where it comes from', () => {
    // Rows of data/lin2023-domain-pc1.csv: reuters.com,1 / infowars.com,0.0458475179096454 /
    // nytimes.com,0.858776290720608
    const reuters = credibility.rate('https://www.reuters.com/world/some-story');
    expect(reuters).toMatchObject({
      domain: 'reuters.com',
      credibility_score: 1,
      category: 'news',
      rated: true,
      matched_domain: 'reuters.com',
    });
    expect(reuters.notes).toMatch(/pc1 of Lin et al\. \(2023\)/);
    expect(reuters.factual_reporting).toBe('unknown');
    expect(reuters.bias_rating).toBe('unknown');
    expect(reuters.last_updated).toBe('2023-09-01T00:00:00.000Z');
    expect(credibility.rate('infowars.com').credibility_score).toBe(0.046);
    expect(credibility.rate('https://nytimes.com').credibility_score).toBe(0.859);
  });

  it('falls back from a subdomain to the rated registrable domain, and keeps a rated subdomain its own', () => {
    const sub = credibility.rate('https://live.reuters.com/x');
    expect(sub.matched_domain).toBe('reuters.com');
    expect(sub.notes).toMatch(/using its registrable domain reuters\.com/);
    // news.harvard.edu,0.920857173139642 is rated itself; harvard.edu is not.
    const harvard = credibility.rate('https://news.harvard.edu/gazette/story');
    expect(harvard).toMatchObject({
      matched_domain: 'news.harvard.edu',
      credibility_score: 0.921,
      category: 'academic',
      domain: 'harvard.edu',
    });
  });

  it('gives government and academic namespaces their category over "news"', () => {
    expect(credibility.rate('https://www.cdc.gov/flu')).toMatchObject({
      category: 'government',
      credibility_score: 0.964,
      rated: true,
    });
  });

  it('marks unknown domains as rule-based', () => {
    const unknown = credibility.rate('https://some-unrated-blog.example/post');
    expect(unknown).toMatchObject({
      rated: false,
      category: 'unknown',
      credibility_score: 0.5,
      bias_rating: 'unknown',
      factual_reporting: 'unknown',
    });
    expect(unknown.notes).toMatch(/from rules, not ratings/);
    expect(credibility.rate('https://unrated-agency.gov.au/report')).toMatchObject({
      rated: false,
      category: 'government',
      credibility_score: 0.86,
    });
    expect(credibility.rate('https://physics.unrated-university.ac.uk/')).toMatchObject({
      rated: false,
      category: 'academic',
      credibility_score: 0.75,
    });
    expect(credibility.rate('https://somebody.blogspot.com/2024/post')).toMatchObject({
      rated: false,
      category: 'personal',
      domain: 'somebody.blogspot.com',
    });
    expect(credibility.rate('http://127.0.0.1:4000/page')).toMatchObject({
      rated: false,
      category: 'unknown',
      domain: '127.0.0.1',
    });
  });

  it('rates a section where the set rates a section, and not the rest of the site', () => {
    // facebook.com/news,0.833395361939761 and facebook.com,0.407463584992285 are separate rows.
    expect(credibility.rate('https://www.facebook.com/news/some-item')).toMatchObject({
      credibility_score: 0.833,
      matched_domain: 'facebook.com/news',
    });
    expect(credibility.rate('https://www.facebook.com/somebody')).toMatchObject({
      credibility_score: 0.407,
      matched_domain: 'facebook.com',
    });
  });

  it('marks satire even when the site is rated', () => {
    expect(credibility.rate('https://www.theonion.com/x')).toMatchObject({ category: 'satire', rated: true });
  });
});

describe('supplied rating files', () => {
  it('maps MBFC labels in the Baly et al. format onto the spec values (hand-made rows)', () => {
    const credibility = service({ ratingsFiles: [{ path: HANDMADE_MBFC, date: '2020-07-01' }] });
    const expected: Array<[string, string, string]> = [
      ['example-far-left.test', 'low', 'far_left'],
      ['example-left.test', 'mixed', 'left'],
      ['example-left-center.test', 'high', 'center_left'],
      ['example-center.test', 'high', 'center'],
      ['example-right-center.test', 'mixed', 'center_right'],
      ['example-right.test', 'low', 'right'],
      ['example-far-right.test', 'low', 'far_right'],
      // MBFC's own six-level labels, as a supplied file may carry them.
      ['example-very-high.test', 'very_high', 'center'],
      ['example-mostly.test', 'mostly_factual', 'center'],
      ['example-very-low.test', 'very_low', 'right'],
    ];
    for (const [domain, factual, bias] of expected) {
      const rated = credibility.rate(`https://${domain}/`);
      expect(rated, domain).toMatchObject({
        factual_reporting: factual,
        bias_rating: bias,
        rated: true,
        last_updated: '2020-07-01T00:00:00.000Z',
      });
    }
    // Only a label: the score is the label's band, said so.
    expect(credibility.rate('example-left.test')).toMatchObject({ credibility_score: 0.417 });
    expect(credibility.rate('example-left.test').notes).toMatch(/band of factual reporting "mixed"/);
    // Both sets: pc1 from Lin et al., labels from the supplied file; last_updated is the newer date.
    const nyt = credibility.rate('https://www.nytimes.com/section/science');
    expect(nyt).toMatchObject({
      credibility_score: 0.859,
      factual_reporting: 'high',
      bias_rating: 'center_left',
      last_updated: '2023-09-01T00:00:00.000Z',
    });
    expect(nyt.notes).toMatch(/Bias "center_left": Media Bias\/Fact Check labels as collected by Baly et al\./);
  });

  it('reads a later pc1 file over the bundled one, and refuses a file of unknown format naming it', () => {
    const pc1 = join(scratch, 'ratings.csv');
    writeFileSync(pc1, 'domain,pc1\nreuters.com,0.5\nnew-outlet.test,0.7\n');
    const credibility = service({ ratingsFiles: [pc1] });
    expect(credibility.rate('reuters.com').credibility_score).toBe(0.5);
    expect(credibility.rate('new-outlet.test')).toMatchObject({ credibility_score: 0.7, rated: true });
    const bad = join(scratch, 'bad.csv');
    writeFileSync(bad, 'site,rating\nx.test,3\n');
    expect(() => service({ ratingsFiles: [bad] }).size()).toThrow(/credibility\.ratingsFiles: .*bad\.csv/);
    expect(() => service({ bundledRatings: false }).size()).not.toThrow();
    expect(service({ bundledRatings: false }).rate('reuters.com').rated).toBe(false);
  });
});
