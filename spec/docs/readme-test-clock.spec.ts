import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import * as billing from '../../lib';
import * as testing from '../../lib/testing';

// Issue 25 §3: the Jest test of docs/testing.md past the free period runs here as it is written:
// its block is transpiled and run while this file is collected, so its `test(...)` is a
// test of this suite, and the package's names resolve to the sources.
const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'docs', 'testing.md'), 'utf8');
const HEADING = '## Tests past the free period: `createTestClock`';

function sectionBlock(): string {
  const start = README.indexOf(`${HEADING}\n`);
  if (start < 0) throw new Error(`docs/testing.md has no section ${HEADING}`);
  const rest = README.slice(start + HEADING.length);
  const end = rest.search(/\n#{1,3} /);
  const block = /```ts\n([\s\S]*?)```/.exec(end < 0 ? rest : rest.slice(0, end));
  if (!block) throw new Error(`README section ${HEADING} has no ts block`);
  return block[1]!;
}

const PACKAGES: Record<string, unknown> = { 'unified-billing': billing, 'unified-billing/testing': testing };

const block = sectionBlock();

describe('docs/testing.md: Tests past the free period', () => {
  it('imports the package by its published names only, as a user copies it', () => {
    const imports = [...block.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
    expect(imports).toEqual(['unified-billing', 'unified-billing/testing']);
  });

  it('is the type-checked copy in docs/examples/test-clock.ts, line for line (imports aside)', () => {
    const copy = readFileSync(join(ROOT, 'docs', 'examples', 'test-clock.ts'), 'utf8');
    const missing = block
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('import ') && !copy.includes(line));
    expect(missing).toEqual([]);
  });

  // The block itself: it declares its own test(s) with the globals Jest gives a test file.
  const { outputText } = ts.transpileModule(block, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
  });
  const requireMapped = (name: string): unknown => {
    if (!(name in PACKAGES)) throw new Error(`the README block imports ${name}`);
    return PACKAGES[name];
  };
  let declared = 0;
  const countedTest = (name: string, fn: () => Promise<void>) => {
    declared++;
    test(`README block: ${name}`, fn);
  };
  new Function('require', 'exports', 'test', 'it', 'expect', outputText)(
    requireMapped,
    {},
    countedTest,
    countedTest,
    expect,
  );

  it('declares its tests: past the free period, and the 503 retry through clock.settle (issue 31)', () => {
    expect(declared).toBe(2);
    expect(block).toContain('await clock.settle(client.billing.consume())');
  });
});
