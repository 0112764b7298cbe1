/**
 * Transpiles a few source modules to plain JS in `out`, so a bare `node`
 * child process (one that a test kills, or several writing at once) can
 * import them without a build. Returns the path of the entry module.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../../core/paths.js';

/** files and entry are paths from the repository root, e.g. `core/stores/stores.ts`. */
export function compileForChild(out: string, files: readonly string[], entry: string): string {
  for (const file of files) {
    const { outputText } = ts.transpileModule(readFileSync(join(PACKAGE_ROOT, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    const target = join(out, file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  writeFileSync(join(out, 'package.json'), '{"type":"module"}');
  symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  return join(out, entry.replace(/\.ts$/, '.js'));
}
