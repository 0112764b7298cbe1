/**
 * The meaning of each setting as its declaration's doc comment says it:
 * the `/** … *\/` above a property of a zod object in app/config.ts and in
 * the sections it imports from services, followed through identifiers,
 * imported constants, helper functions that return a schema, `.extend(…)`
 * and object spreads. Keyed by the setting's dotted path (`outbound.proxy`;
 * a record's entries as `<id>`: `engines.<id>.enabled`). Comments are the
 * project's way of describing settings, so a section another helper adds is
 * read without anything more to do.
 */
import ts from 'typescript';

const OBJECT_FACTORIES = new Set(['object', 'strictObject', 'looseObject']);
/** Where a record's keys stand in a path. */
export const RECORD_KEY = '<id>';

export function settingComments(entryFile: string, exportName: string): Map<string, string> {
  const program = ts.createProgram([entryFile], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    noResolve: false,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entryFile);
  if (!source) throw new Error(`cannot read ${entryFile}`);
  const comments = new Map<string, string>();
  const visiting = new Set<ts.Node>();

  const declarationOf = (node: ts.Identifier): ts.Declaration | undefined => {
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    // The project's own declarations only: zod's are no settings.
    return declaration && !declaration.getSourceFile().fileName.includes('/node_modules/') ? declaration : undefined;
  };

  const walkObject = (literal: ts.ObjectLiteralExpression, path: string): void => {
    for (const property of literal.properties) {
      if (ts.isSpreadAssignment(property)) {
        walk(property.expression, path);
        continue;
      }
      if (!ts.isPropertyAssignment(property)) continue;
      const name =
        ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)
          ? property.name.text
          : property.name.getText();
      const key = path ? `${path}.${name}` : name;
      const comment = docComment(property);
      if (comment && !comments.has(key)) comments.set(key, comment);
      walk(property.initializer, key);
    }
  };

  const walk = (node: ts.Node, path: string): void => {
    if (visiting.has(node)) return;
    visiting.add(node);
    try {
      if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
        return walk(node.expression, path);
      if (ts.isObjectLiteralExpression(node)) return walkObject(node, path);
      if (ts.isIdentifier(node)) {
        const declaration = declarationOf(node);
        if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer)
          walk(declaration.initializer, path);
        return;
      }
      if (!ts.isCallExpression(node)) return;
      const callee = node.expression;
      if (ts.isIdentifier(callee)) {
        // A helper returning a schema: modelSchema(32).
        const declaration = declarationOf(callee);
        const body = declaration && functionBody(declaration);
        if (body) walk(body, path);
        return;
      }
      if (!ts.isPropertyAccessExpression(callee)) return;
      const method = callee.name.text;
      const [first, second] = node.arguments;
      if (OBJECT_FACTORIES.has(method)) {
        // z.object({ … }), or z.object(shape) with the shape declared elsewhere.
        if (first) walk(first, path);
        return;
      }
      if (method === 'extend') {
        walk(callee.expression, path);
        if (first) walk(first, path);
        return;
      }
      if (method === 'record' && second) return walk(second, `${path}.${RECORD_KEY}`);
      // Arrays, unions and scalars are one setting each; their inside is no further setting.
      if (method === 'array' || method === 'union' || method === 'discriminatedUnion') return;
      // .strict(), .default(…), .prefault(…), .optional(), .transform(…) …: the schema they wrap.
      walk(callee.expression, path);
    } finally {
      visiting.delete(node);
    }
  };

  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.name.text === exportName && declaration.initializer)
        walk(declaration.initializer, '');
    }
  }
  return comments;
}

function functionBody(declaration: ts.Declaration): ts.Node | undefined {
  const fn = ts.isVariableDeclaration(declaration) ? declaration.initializer : declaration;
  if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) || !fn.body)
    return undefined;
  if (!ts.isBlock(fn.body)) return fn.body;
  const returned = fn.body.statements.find(ts.isReturnStatement);
  return returned?.expression;
}

/** The text of the last `/** … *\/` comment right before a property, on one line. */
function docComment(node: ts.Node): string | undefined {
  const text = node.getSourceFile().getFullText();
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const doc = ranges.filter((r) => text.startsWith('/**', r.pos)).at(-1);
  if (!doc) return undefined;
  return text
    .slice(doc.pos + 3, doc.end - 2)
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .filter(Boolean)
    .join(' ');
}
