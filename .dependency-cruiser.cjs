/**
 * The import rules of ARCHITECTURE.md, checked by `npm run check:deps` and by
 * test/architecture.test.ts (part of `npm test`). Type-only imports count:
 * a cycle of types is still a cycle a reader has to untangle.
 */
const SOURCE = '^(core|services|app|plugins|engines|hosts|workers)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycle anywhere, type-only imports included.',
      from: { path: SOURCE },
      to: { circular: true },
    },
    {
      name: 'core-is-the-kernel',
      severity: 'error',
      comment:
        'core/ imports only core/ and packages: never a service, the composition root, a plugin, an engine or a host.',
      from: { path: '^core/', pathNot: '\\.test\\.ts$|/fixtures/' },
      to: { path: '^(services|app|plugins|engines|hosts|workers|bench|test)/' },
    },
    {
      name: 'services-below-app',
      severity: 'error',
      comment: 'A shared service never reaches up into the composition root, an area plugin, an engine or a host.',
      from: { path: '^services/', pathNot: '\\.test\\.ts$|/fixtures/' },
      to: { path: '^(app|plugins|engines|hosts|bench)/' },
    },
    {
      name: 'app-loads-plugins-at-run-time',
      severity: 'error',
      comment:
        'The composition root finds area plugins by folder at run time and hands each its declared services; ' +
        'it never imports a plugin ' +
        '(what only one area uses is built by that area, in its open()).',
      from: { path: '^app/', pathNot: '^app/config\\.ts$|\\.test\\.ts$' },
      to: { path: '^plugins/' },
    },
    {
      name: 'app-config-reads-only-areas-config-sections',
      severity: 'error',
      comment:
        'The configuration file format includes the sections areas declare (plugins/<area>/…/config.ts, a ' +
        'zod schema), and nothing else of a plugin.',
      from: { path: '^app/config\\.ts$' },
      to: { path: '^plugins/', pathNot: ['^plugins/[a-z-]+/config\\.ts$', '^plugins/[a-z-]+/[a-z-]+/config\\.ts$'] },
    },
    {
      name: 'plugins-are-isolated',
      severity: 'error',
      comment: 'An area plugin never imports another area plugin: what two areas share is a service.',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^plugins/', pathNot: '^plugins/$1/' },
    },
    {
      name: 'plugins-see-only-the-plugin-api-of-app',
      severity: 'error',
      comment:
        'Area plugins receive their services as arguments; from app/ they may import only the type of those arguments.',
      from: { path: '^plugins/' },
      to: { path: '^app/', pathNot: '^app/(plugin-services|config)\\.ts$' },
    },
    {
      name: 'plugins-read-pages-only-through-the-reader',
      severity: 'error',
      comment:
        'Every page an area reads goes through services/scrape (the reader) or services/discover: ' +
        'robots.txt, the page cache and the failure codes live there once. ' +
        'Plugins never reach the outbound client, the browser pool, extraction itself or a DOM parser.',
      from: { path: '^plugins/', pathNot: '\\.test\\.ts$' },
      to: {
        path: [
          '^core/http/(?!types\\.ts$)',
          '^services/browser/',
          '^services/scrape/(page-source|rendered-page)\\.ts$',
          '^services/extract/(?!types\\.ts$)',
          '^services/discover/(discover|site-crawl|discovery-run|link-crawl|sitemaps|robots)\\.ts$',
          '(^|/)node_modules/(linkedom|htmlparser2|cheerio|parse5|jsdom|turndown|@mozilla/readability|playwri' +
            'ght-core|undici)/',
        ],
        // Shapes (a pattern's type, a crawl's result) are no way to read a page.
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'plugins-never-import-hosts-or-engines',
      severity: 'error',
      from: { path: '^plugins/' },
      to: { path: '^(hosts|engines|workers)/' },
    },
    {
      name: 'engines-see-only-the-engine-contract',
      severity: 'error',
      comment:
        'An engine is a pure request builder and response parser: it imports the engine contract and shared ' +
        'engine helpers only.',
      from: { path: '^engines/', pathNot: '\\.test\\.ts$|/fixtures/' },
      to: { path: '^(core|services|app|plugins|hosts|workers)/', pathNot: '^core/engine\\.ts$' },
    },
    {
      name: 'hosts-only-translate',
      severity: 'error',
      comment:
        'Hosts reach the service through the composition root and the capability registry, never a plugin directly.',
      from: { path: '^hosts/' },
      to: { path: '^(plugins|engines)/' },
    },
    {
      name: 'workers-are-entry-files',
      severity: 'error',
      comment: 'Worker entry files run a service in a thread; they never load the app, a plugin or a host.',
      from: { path: '^workers/' },
      to: { path: '^(app|plugins|hosts|engines)/' },
    },
    {
      name: 'product-code-never-imports-tests',
      severity: 'error',
      from: { path: SOURCE, pathNot: '\\.test\\.ts$|/fixtures/' },
      to: { path: '(^test/|\\.test\\.ts$|/fixtures/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
