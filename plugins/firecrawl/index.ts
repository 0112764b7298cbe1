/**
 * The firecrawl area: Firecrawl's v2 and v1 API as a mapping onto the one
 * chain (the reader, discovery, web search, jobs, webhooks), for the official
 * clients and the tools built on them. Point a client's apiUrl at
 * `<base>/firecrawl` (or `<base>/api/v1/firecrawl`); answers and errors are in
 * Firecrawl's envelope. HTTP only: MCP agents have Quarry's own tools.
 */
import { definePlugin } from '../../app/plugin-services.js';
import { FIRECRAWL_USES } from './uses.js';
import { creditUsageCapability } from './account.js';
import { creditLedgerOf } from './credit-ledger.js';
import { batchScrapeCapability } from './batch.js';
import { BATCH_JOB, runBatch, type BatchJobInput } from './batch-run.js';
import { activeCrawlsCapability, crawlCapability } from './crawl.js';
import { paramsPreviewCapability } from './crawl-preview.js';
import { CRAWL_JOB, runCrawl, type CrawlJobInput } from './crawl-run.js';
import { withWatcher } from './crawl-watch.js';
import { EXTRACT_JOB, extractCapabilities, runExtract } from './extract.js';
import { mapCapability } from './map.js';
import { queueCapabilities } from './queue-status.js';
import { cancelCapability, errorsCapability, jobPagesOf, pagesJobs, statusCapability } from './pages-jobs.js';
import { scrapeCapability } from './scrape.js';
import { searchCapability } from './search.js';
import { usageHistoryCapabilities } from './usage-history.js';

/** The job lane of crawls and batch scrapes (its concurrency is jobs.concurrency). */
const FIRECRAWL_LANE = 'firecrawl';

export default definePlugin({
  uses: FIRECRAWL_USES,
  // The credit ledger is shared by every route that reads pages; what it counted is written before the area closes.
  open: (services) => ({ ledger: creditLedgerOf(services) }),
  close: (own) => own.ledger.flush(),
  jobHandlers(services) {
    const { pages } = jobPagesOf(services);
    // Their own lane: a crawl that runs for hours holds up only other crawls and batches, not the other areas' jobs.
    return {
      [CRAWL_JOB]: {
        lane: FIRECRAWL_LANE,
        run: (input, job) => runCrawl(services, pages, input as CrawlJobInput, job),
      },
      [BATCH_JOB]: {
        lane: FIRECRAWL_LANE,
        run: (input, job) => runBatch(services, pages, input as BatchJobInput, job),
      },
      [EXTRACT_JOB]: (input, job) => runExtract(services, input, job),
    };
  },
  setup(services) {
    const jobs = pagesJobs(services, { crawl: CRAWL_JOB, batch: BATCH_JOB });
    const versioned = (['v2', 'v1'] as const).flatMap((version) => {
      // v1's /crawl/:id also answers batch ids (firecrawl-js v1 polls a batch there).
      const crawlRoutes = {
        jobs,
        version,
        route: '/crawl',
        name: 'crawl' as const,
        surfaces: version === 'v1' ? [jobs.crawl, jobs.batch] : [jobs.crawl],
      };
      const batchRoutes = { jobs, version, route: '/batch/scrape', name: 'batch' as const, surfaces: [jobs.batch] };
      return [
        scrapeCapability(services, version),
        mapCapability(services, version),
        searchCapability(services, version),
        creditUsageCapability(services, version),
        ...usageHistoryCapabilities(services, version),
        ...queueCapabilities(services, [CRAWL_JOB, BATCH_JOB], version),
        crawlCapability(services, jobs, version),
        activeCrawlsCapability(services, version),
        withWatcher(statusCapability(crawlRoutes), services, version),
        cancelCapability(crawlRoutes),
        ...errorsCapability(crawlRoutes),
        batchScrapeCapability(services, jobs, version),
        withWatcher(statusCapability(batchRoutes), services, version),
        cancelCapability(batchRoutes),
        ...errorsCapability(batchRoutes),
      ];
    });
    return [...versioned, paramsPreviewCapability(services), ...extractCapabilities(services)];
  },
});
