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
import { EXTRACT_JOB, extractCapabilities, runExtract } from './extract.js';
import { mapCapability } from './map.js';
import { scrapeCapability } from './scrape.js';
import { searchCapability } from './search.js';

export default definePlugin({
  uses: FIRECRAWL_USES,
  jobHandlers(services) {
    return { [EXTRACT_JOB]: (input, job) => runExtract(services, input, job) };
  },
  setup(services) {
    return [
      ...(['v2', 'v1'] as const).flatMap((version) => [
        scrapeCapability(services, version),
        mapCapability(services, version),
        searchCapability(services, version),
        creditUsageCapability(version),
      ]),
      ...extractCapabilities(services),
    ];
  },
});
