#!/usr/bin/env node
/**
 * The quarry command: serve (HTTP), mcp (stdio), engines, engine parse/new/try, index stats/purge, backup, restore.
 * Output meant for people or pipes goes to stdout; logs go to stderr.
 */
import { parseArgs } from 'node:util';

const USAGE = `Usage: quarry <command>

Commands:
  serve                              start the HTTP API (QUARRY_HOST, QUARRY_PORT)
  mcp                                serve the MCP protocol over stdio
  engines [--json]                   list the engine catalogue
  engine parse <id> <file> [--query Q]
                                     run an engine's parser on a saved response, print results as JSON
  engine new <id> [--dir DIR]        scaffold an engine folder (manifest, code, fixture, test)
  engine try <id> <query>            query one engine live (needs internet) and print its results
  index stats [--json]               size of the local page index
  index purge [--all] [--domain D] [--url U] [--older-than-days N]
                                     remove pages from the local page index
  backup <dir>                       copy the embedded stores (records, graphs, corpora, page index, generated secrets)
                                     into a new folder with a manifest; stop the server first (docs/upgrading.md)
  restore <dir> [--force]            put a backup into the configured data directory (empty, or --force to replace
                                     its stores); refuses a backup newer than this release

Configuration: quarry.config.json in the working directory (or QUARRY_CONFIG), QUARRY_* variables; see README.md.
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      query: { type: 'string' },
      dir: { type: 'string' },
      all: { type: 'boolean', default: false },
      domain: { type: 'string' },
      url: { type: 'string' },
      'older-than-days': { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  // Commands load only what they need: the catalogue and parser need no server, pools or stores.
  const engineCommands = (): Promise<typeof import('./engine-commands.js')> => import('./engine-commands.js');
  const serveCommands = (): Promise<typeof import('./serve-commands.js')> => import('./serve-commands.js');
  switch (command) {
    case 'serve':
      return (await serveCommands()).runServe();
    case 'mcp':
      return (await import('./mcp-command.js')).runMcp();
    case 'engines':
      return (await engineCommands()).runEnginesList({ json: values.json });
    case 'engine': {
      const [sub, id, arg] = rest;
      if (sub === 'parse' && id && arg) return (await engineCommands()).runEngineParse(id, arg, values.query);
      if (sub === 'new' && id) return (await engineCommands()).runEngineNew(id, values.dir);
      if (sub === 'try' && id && arg) return (await engineCommands()).runEngineTry(id, arg);
      process.stderr.write(
        'quarry engine: expected "engine parse <id> <file>", "engine new <id>" or "engine try <id> <query>"\n',
      );
      return 2;
    }
    case 'index': {
      const indexCommands = await import('./index-commands.js');
      if (rest[0] === 'stats') return indexCommands.runIndexStats(values.json);
      if (rest[0] === 'purge') {
        return indexCommands.runIndexPurge({
          all: values.all,
          ...(values.domain !== undefined ? { domain: values.domain } : {}),
          ...(values.url !== undefined ? { url: values.url } : {}),
          ...(values['older-than-days'] !== undefined ? { olderThanDays: values['older-than-days'] } : {}),
        });
      }
      process.stderr.write('quarry index: expected "index stats" or "index purge"\n');
      return 2;
    }
    case 'backup':
    case 'restore': {
      const storageCommands = await import('./storage-commands.js');
      const [dir] = rest;
      if (!dir || rest.length > 1) {
        process.stderr.write(`quarry ${command}: expected "${command} <dir>"\n`);
        return 2;
      }
      return command === 'backup' ? storageCommands.runBackup(dir) : storageCommands.runRestore(dir, values.force);
    }
    default:
      process.stderr.write(`quarry: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

// A reader that stops early (quarry engines | head) closes the pipe: that ends the output, not in a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== -1) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`quarry: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
