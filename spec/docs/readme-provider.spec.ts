import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import { renderToString } from 'react-dom/server';
import ts from 'typescript';
import * as billing from '../../lib';
import * as react from '../../lib/react';

// Issue 25 §4: the README's provider example (its React section), as a user copies it (TSX, the package's names):
// type-checked with the package names mapped to the sources, then rendered on the server.
const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const HEADING = '## React';

function block(): string {
  const start = README.indexOf(`${HEADING}\n`);
  if (start < 0) throw new Error(`README has no section ${HEADING}`);
  const found = /```tsx\n([\s\S]*?)```/.exec(README.slice(start));
  if (!found) throw new Error(`README section ${HEADING} has no tsx block`);
  return found[1]!;
}

const FILE = join(ROOT, 'docs', 'examples', 'readme-provider.tsx');
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noUnusedLocals: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  baseUrl: ROOT,
  paths: { 'unified-billing': ['lib/index.ts'], 'unified-billing/react': ['lib/react/index.ts'] },
};

describe('README: BillingProvider', () => {
  const source = block();

  it('type-checks as written, with the package names mapped to the sources', () => {
    const host = ts.createCompilerHost(OPTIONS);
    const read = host.readFile.bind(host);
    host.readFile = (name) => (name === FILE ? source : read(name));
    const exists = host.fileExists.bind(host);
    host.fileExists = (name) => name === FILE || exists(name);
    const getSource = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version) =>
      name === FILE ? ts.createSourceFile(name, source, version, true, ts.ScriptKind.TSX) : getSource(name, version);
    // lib/ as the build sees it: with the declaration of `__DEV__`.
    const program = ts.createProgram([FILE, `${ROOT}/lib/shared/dev-flag.d.ts`], OPTIONS, host);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    // A whole program (lib/, React's and RxJS's types): seconds, more on a loaded machine.
  }, 120_000);

  it('renders on the server: the button, loading, no request', () => {
    const { outputText } = ts.transpileModule(source, { compilerOptions: OPTIONS });
    const modules: Record<string, unknown> = {
      react: React,
      'react/jsx-runtime': jsxRuntime,
      'unified-billing': billing,
      'unified-billing/react': react,
    };
    const exports: { App?: (props: { userId: string; token: string }) => React.ReactNode } = {};
    new Function('require', 'exports', outputText)((name: string) => modules[name], exports);
    const html = renderToString(React.createElement(exports.App!, { userId: 'alice', token: 't' }));
    expect(html).toBe('<button disabled="">Export <!-- -->(loading…)</button>');
  });
});
