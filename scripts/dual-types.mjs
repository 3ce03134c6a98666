// Turns the .d.ts tree tsc emitted into two trees side by side: .d.mts files
// that import each other as ./x.mjs (read as ESM, beside dist/*.mjs) and .d.cts
// files that import each other as ./x.cjs (read as CJS, beside dist/*.cjs).
// One .d.ts for both would be read as CJS by ESM importers ("masquerading as
// CJS"), and node16's ESM resolution needs an extension on every relative import.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

function declarationFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return declarationFiles(path);
    return name.endsWith('.d.ts') ? [path] : [];
  });
}

// Every module specifier in a declaration file: import/export ... from,
// import('...') types and `declare module '...'`.
function specifiers(source) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      found.push(node.moduleSpecifier);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      found.push(node.argument.literal);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      found.push(node.moduleReference.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((literal) => ts.isStringLiteral(literal));
}

// './client' -> './client' + ext, './sync' -> './sync/index' + ext; packages stay as they are.
function rewrite(specifier, fromFile, extension) {
  if (!specifier.startsWith('.')) return specifier;
  const bare = specifier.replace(/\.(js|ts|d\.ts)$/, '');
  const target = join(dirname(fromFile), bare);
  if (existsSync(`${target}.d.ts`)) return `${bare}${extension}`;
  if (existsSync(join(target, 'index.d.ts'))) return `${bare}/index${extension}`;
  throw new Error(`${relative(process.cwd(), fromFile)}: cannot resolve ${specifier}`);
}

function withExtensions(file, text, extension) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let out = text;
  // From the end, so earlier offsets stay valid.
  for (const literal of specifiers(source).sort((a, b) => b.getStart(source) - a.getStart(source))) {
    const start = literal.getStart(source) + 1;
    const end = literal.getEnd() - 1;
    out = out.slice(0, start) + rewrite(literal.text, file, extension) + out.slice(end);
  }
  return out;
}

// The declaration files whose Node built-in imports are optional: the HTTP server's types
// (lib/testing/http/server-types.ts). `unified-billing/testing` reaches them, and a jsdom project
// without @types/node must still type-check its in-process API (issue 31): there the imported names
// are `any` rather than an error. tsc drops comments on imports, so the directive is added here.
const OPTIONAL_NODE_TYPES = ['testing/http/server-types.d.ts'];
const NODE_IMPORT = /^import type [^;]+ from 'node:[a-z_/]+';$/gm;

function markOptional(text) {
  const marked = text.replace(NODE_IMPORT, (line) => `// @ts-ignore: without @types/node, these are \`any\`\n${line}`);
  if (marked === text) throw new Error('expected a Node built-in type import to mark optional');
  return marked;
}

/** Rewrites `dir`'s .d.ts files into .d.mts and .d.cts files; returns how many sources. */
export function dualTypes(dir) {
  const files = declarationFiles(dir);
  const outputs = files.map((file) => {
    const optional = OPTIONAL_NODE_TYPES.includes(relative(dir, file).split('\\').join('/'));
    const text = optional ? markOptional(readFileSync(file, 'utf8')) : readFileSync(file, 'utf8');
    const stem = file.slice(0, -'.d.ts'.length);
    return [
      [`${stem}.d.mts`, withExtensions(file, text, '.mjs')],
      [`${stem}.d.cts`, withExtensions(file, text, '.cjs')],
    ];
  });
  // Written only once every file resolved, then the .d.ts files go.
  for (const [path, text] of outputs.flat()) writeFileSync(path, text);
  for (const file of files) rmSync(file);
  return files.length;
}
