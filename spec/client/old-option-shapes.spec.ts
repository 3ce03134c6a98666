import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// Issue 31, point 5: the option shapes of 0.1 fail `tsc` with an error that names the new way, not
// only at run time and in an editor's hover. types/old-option-shapes.ts marks each old shape with
// `@ts-expect-error` (so the type check fails if one compiles again); here the same file is compiled
// without those marks, and each error must quote the way to write it.
const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(__dirname, 'types', 'old-option-shapes.ts');

function errorsByLine(): Map<number, string> {
  const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const unmarked = readFileSync(FIXTURE, 'utf8').replace(/\/\/ @ts-expect-error/g, '// (expected error)');
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (path) => (path === FIXTURE ? unmarked : readFile(path));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (path, language, onError) =>
    path === FIXTURE ? ts.createSourceFile(path, unmarked, language) : getSourceFile(path, language, onError);
  const program = ts.createProgram([FIXTURE], options, host);
  const found = new Map<number, string>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program, program.getSourceFile(FIXTURE))) {
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!);
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    found.set(line + 1, `${found.get(line + 1) ?? ''}${text}\n`);
  }
  return found;
}

describe('tsc refuses the option shapes of 0.1 naming the new way (issue 31)', () => {
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  // Each mark says what the error on the line below must quote.
  const expected = lines.flatMap((line, index) => {
    const names = /@ts-expect-error names (.+)$/.exec(line)?.[1];
    return names === undefined ? [] : [{ line: index + 2, quotes: names.split(' and ') }];
  });
  let errors: Map<number, string>;
  beforeAll(() => {
    errors = errorsByLine();
  }, 60_000);

  it('marks five old shapes', () => {
    expect(expected).toHaveLength(5);
  });

  it.each(expected.map((entry) => [lines[entry.line - 1]!.trim(), entry] as const))('%s', (_code, entry) => {
    const said = errors.get(entry.line) ?? '(no error)';
    for (const quote of entry.quotes) expect(said).toContain(quote);
  });

  it('and nothing else in the file errs', () => {
    const marked = new Set(expected.map((entry) => entry.line));
    expect([...errors.keys()].filter((line) => !marked.has(line))).toEqual([]);
  });
});
