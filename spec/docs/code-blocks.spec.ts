import { join } from 'node:path';
import ts from 'typescript';
import { codeBlocks, markdownPages, read, ROOT, type CodeBlock } from '../helpers/markdown';

// Every TypeScript block of the README and the docs pages type-checks as a user pastes it: its imports are the
// package's published names (package.json "exports"), which resolve to the sources here. A block is a module of its
// own, compiled with top-level await. What a fragment takes from the app around it (a `client`, a `button`, a
// `showTopUp()`) is declared once below; anything else it uses must be imported or declared in the block.
const APP = `
import type { BillingModule, Client, ClientOptions, HeadersOption, UsageInfo, BillingError } from 'unified-billing';
declare global {
  const client: Client;
  const baseUrl: string;
  const token: string;
  const headers: HeadersOption;
  const button: HTMLButtonElement;
  const quota: HTMLElement;
  const billing: BillingModule;
  const user: User;
  const auth: { getToken(): Promise<string>; refreshToken(): Promise<void> };
  const analytics: { track(name: string, properties?: Record<string, unknown>): void };
  const metrics: { increment(name: string, tags?: Record<string, unknown>): void };
  const telemetry: { track(name: string): void };
  interface User { readonly id: string }
  function getToken(): Promise<string>;
  function render(value: unknown): void;
  function showTopUp(creditsNeeded?: number | null): void;
  function showError(error: unknown): void;
  function showRetryButton(retry: () => Promise<void>): void;
  function warn(message: string): void;
  function runExport(docId?: string): Promise<void>;
  function offerRetry(externalId?: string, retryAfterMs?: number): void;
  function signIn(): void;
  function reportBug(error: BillingError): void;
  function headersOf(user: User): HeadersOption;
  function log(value: unknown): void;
  function finishExport(externalId: string): void;
  type AppOptions = ClientOptions;
  type AppUsage = UsageInfo;
}
export {};
`;
// The platform modules the React Native page's blocks import, as far as the blocks use them (not installed here).
const PLATFORM_MODULES = `
declare module 'react-native' {
  export const AppState: { addEventListener(type: 'change', handler: (state: string) => void): { remove(): void } };
}
declare module 'react-native-mmkv' {
  export class MMKV {
    getString(key: string): string | undefined;
    set(key: string, value: string): void;
    delete(key: string): void;
  }
}
`;

// Blocks checked elsewhere, by the tool they are written for: the Next.js recipe's files (relative imports; CI runs
// `next build` on them) and the Vite plugin (scripts/check-consumers.mjs runs it under Vite, which is not installed here).
const CHECKED_ELSEWHERE = ['docs/recipes/nextjs.md'];
const BLOCKS_CHECKED_ELSEWHERE = [/^\/\/ vite\.config\.ts\n/];

const manifest = JSON.parse(read('package.json')) as { exports: Record<string, unknown> };
const PUBLISHED = Object.keys(manifest.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'unified-billing' : `unified-billing/${key.slice(2)}`));
// What the blocks may import besides the package: its peers and what the recipes name.
const OTHERS = ['rxjs', 'react', 'symbol-observable', 'react-native', 'react-native-mmkv'];

function blocks(): CodeBlock[] {
  return markdownPages()
    .filter((file) => !CHECKED_ELSEWHERE.includes(file))
    .flatMap((file) => codeBlocks(file, read(file)))
    .filter((block) => ['ts', 'tsx', 'typescript'].includes(block.lang))
    .filter((block) => !BLOCKS_CHECKED_ELSEWHERE.some((pattern) => pattern.test(block.code)));
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node', 'jest'],
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  baseUrl: ROOT,
  paths: {
    'unified-billing': ['lib/index.ts'],
    'unified-billing/element/react': ['lib/element/react/index.ts'],
    'unified-billing/element/vue': ['lib/element/vue/index.ts'],
    'unified-billing/*': ['lib/*/index.ts'],
  },
};

/** The type errors of these blocks, each as `file:line: message`, the line counted in the Markdown page. */
export function typeErrors(checked: readonly CodeBlock[]): string[] {
  const files = new Map<string, { block: CodeBlock; text: string }>();
  checked.forEach((block, index) => {
    const name = join(
      ROOT,
      '.docs-blocks',
      `${block.file.replace(/\W/g, '_')}_${index}.${block.lang === 'tsx' ? 'tsx' : 'ts'}`,
    );
    // A block with no import or export is a script; `export {}` keeps its names to itself.
    files.set(name, { block, text: `${block.code}\nexport {};\n` });
  });
  const prelude = join(ROOT, '.docs-blocks', 'app.d.ts');
  const platforms = join(ROOT, '.docs-blocks', 'platforms.d.ts');
  const host = ts.createCompilerHost(OPTIONS);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  const virtual = (name: string) =>
    name === prelude ? APP : name === platforms ? PLATFORM_MODULES : files.get(name)?.text;
  host.readFile = (name) => virtual(name) ?? readFile(name);
  host.fileExists = (name) => virtual(name) !== undefined || fileExists(name);
  host.getSourceFile = (name, version, ...rest) => {
    const text = virtual(name);
    return text === undefined
      ? getSourceFile(name, version, ...rest)
      : ts.createSourceFile(name, text, version, true, name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  };
  const program = ts.createProgram(
    [prelude, platforms, ...files.keys(), join(ROOT, 'lib', 'shared', 'dev-flag.d.ts')],
    OPTIONS,
    host,
  );
  const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const entry = diagnostic.file ? files.get(diagnostic.file.fileName) : undefined;
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (entry === undefined || diagnostic.start === undefined) return `${diagnostic.file?.fileName ?? '?'}: ${message}`;
    const line = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start).line;
    return `${entry.block.file}:${entry.block.line + 1 + line}: ${message}`;
  });
  const imports = checked.flatMap((block) =>
    [...block.code.matchAll(/from '([^']+)'|import '([^']+)'/g)]
      .map((match) => (match[1] ?? match[2])!)
      .filter((name) => !PUBLISHED.includes(name) && !OTHERS.includes(name))
      .map((name) => `${block.file}:${block.line}: imports ${name}, which is not a published name`),
  );
  return [...errors, ...imports];
}

// Planted mistakes, compiled with the real blocks so the check is seen to fail: a misspelt export, and an import
// of a path the package does not publish. Their file name is one no page has.
const PLANTED = 'planted.md';
const planted: CodeBlock[] = [
  {
    file: PLANTED,
    line: 1,
    lang: 'ts',
    code: "import { createClent } from 'unified-billing';\ncreateClent({ baseUrl: 'https://a.example', appKey: 'x' });\n",
  },
  { file: PLANTED, line: 10, lang: 'ts', code: "import { decide } from 'unified-billing/core';\ndecide;\n" },
];

describe('every TypeScript block of the README and the docs pages type-checks as a user pastes it', () => {
  const checked = blocks();
  let errors: string[] = [];

  beforeAll(() => {
    // One program for every block (lib/, React's and RxJS's types): seconds, more on a loaded machine.
    errors = typeErrors([...checked, ...planted]);
  }, 180_000);

  it('finds the blocks: the README quick start, and blocks in most pages', () => {
    expect(checked.filter((block) => block.file === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect(new Set(checked.map((block) => block.file)).size).toBeGreaterThan(10);
  });

  it('has no type error, and imports only published names', () => {
    expect(errors.filter((error) => !error.startsWith(PLANTED))).toEqual([]);
  });

  it('fails on a bad name in a block, and on an unpublished import (the check can fail)', () => {
    expect(errors.filter((error) => error.startsWith(PLANTED))).toEqual([
      expect.stringMatching(/^planted\.md:2: .*has no exported member .*createClent/),
      expect.stringMatching(/^planted\.md:11: Cannot find module 'unified-billing\/core'/),
      'planted.md:10: imports unified-billing/core, which is not a published name',
    ]);
  });
});
