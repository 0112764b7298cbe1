#!/usr/bin/env node
/**
 * Fails when a tracked source file has a line over 120 characters (`npm run lint` runs it).
 * Biome's formatter keeps code within 120 columns but leaves comments and string literals as they
 * are, so this closes that gap. Two kinds of line may stay long, because breaking them changes
 * what they mean or makes them harder to read: a line that holds a regular expression or a template
 * literal, a line whose only long part is a URL, and the first line of a test (`it('…', async () => {`),
 * which Biome keeps whole so the title reads as the sentence it is.
 * Usage: node scripts/check-line-width.mjs [files…]   (no files: every tracked .ts/.mts/.js/.mjs/.cjs file)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const LIMIT = 120;
const IGNORED = [/^dist\//, /^models\//, /^services\/entities\/model\//, /(^|\/)node_modules\//];
const URL_RUN = /\bhttps?:\/\/\S{30,}/;
const TEST_TITLE = /^\s*(it|test|describe|bench)(\.\w+)*\(\s*['"]/;

function trackedSources() {
  const listed = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.mts', '*.js', '*.mjs', '*.cjs'], {
    encoding: 'utf8',
  });
  return listed.split('\0').filter((path) => path && !IGNORED.some((pattern) => pattern.test(path)));
}

/** Character ranges of regular-expression and template literals: lines they touch may stay long. */
function exemptRanges(path, text) {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const ranges = [];
  const visit = (node) => {
    const kind = node.kind;
    if (
      kind === ts.SyntaxKind.RegularExpressionLiteral ||
      kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      kind === ts.SyntaxKind.TemplateExpression
    ) {
      ranges.push([node.getStart(file), node.end]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return ranges;
}

export function longLines(path, text) {
  const lines = text.split('\n');
  let ranges;
  const found = [];
  let offset = 0;
  for (const [index, line] of lines.entries()) {
    const start = offset;
    offset += line.length + 1;
    if (line.length <= LIMIT || URL_RUN.test(line) || TEST_TITLE.test(line)) continue;
    ranges ??= exemptRanges(path, text);
    const end = start + line.length;
    if (ranges.some(([from, to]) => from < end && to > start)) continue;
    found.push({ line: index + 1, length: line.length });
  }
  return found;
}

const files = process.argv.length > 2 ? process.argv.slice(2) : trackedSources();
let failures = 0;
for (const path of files) {
  for (const { line, length } of longLines(path, readFileSync(path, 'utf8'))) {
    failures++;
    console.error(
      `${path}:${line}: ${length} characters (the limit is ${LIMIT}; wrap the comment or split the string)`,
    );
  }
}
if (failures > 0) {
  console.error(`${failures} line(s) over ${LIMIT} characters`);
  process.exit(1);
}
