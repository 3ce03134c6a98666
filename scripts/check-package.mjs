// Checks the package as a user receives it (run after `npm run build`):
// packs it, runs @arethetypeswrong/cli and publint on the tarball, then
// type-checks tiny consumer projects that import '.', './testing',
// './react', './devtools', './otel' and './element' from the unpacked tarball under node10, node16 (CJS and ESM) and
// bundler resolution (and bundler with the `react-native` condition); one outside the repository with
// `types: []` (no @types/node, as a jsdom project) that imports the testing kit's in-process API;
// './element' alone in a project with no @types at all (outside the repository, so no @types/react
// is found), and React JSX through './element/react', where a wrong `billing` prop must fail. Then the
// `react-native` condition itself: Node resolves the package with and without it
// (--conditions=react-native) to the same one build, which imports no package
// but rxjs and charges a consume against the reference backend through the
// global fetch with a v4 id.
// Any problem fails: attw exits 1 on one, and every publint message counts,
// suggestions included.
//
//   node scripts/check-package.mjs [tarball]   (packs the repository when omitted)
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules/.bin', name);
// Inside node_modules so the consumers find rxjs, react and @types as a user's project would.
const work = join(root, 'node_modules/.cache/unified-billing-package');
const failures = [];

function step(title) {
  console.log(`\n== ${title}`);
}

function pack() {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
  );
  return join(work, basename(filename));
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const tarball = process.argv[2] ? resolve(process.argv[2]) : pack();
console.log(`tarball: ${tarball} (${readFileSync(tarball).length} bytes)`);

step('attw (profile strict: node10, node16 CJS, node16 ESM, bundler; every entry point)');
const attw = spawnSync(bin('attw'), [tarball, '--format', 'ascii', '--no-color'], { encoding: 'utf8' });
process.stdout.write(attw.stdout);
process.stderr.write(attw.stderr);
if (attw.status !== 0) failures.push(`attw exited ${attw.status}`);

step('publint (suggestions count as problems)');
const tarballBytes = readFileSync(tarball);
const lint = await publint({
  pack: { tarball: tarballBytes.buffer.slice(tarballBytes.byteOffset, tarballBytes.byteOffset + tarballBytes.length) },
  level: 'suggestion',
  strict: true,
});
for (const message of lint.messages) console.log(`${message.type}: ${formatMessage(message, lint.pkg)}`);
console.log(lint.messages.length === 0 ? 'publint: no message' : `publint: ${lint.messages.length} message(s)`);
if (lint.messages.length > 0) failures.push(`publint reported ${lint.messages.length} message(s)`);

step('consumer projects type-check against the unpacked tarball');
const consumers = join(work, 'consumers');
mkdirSync(join(consumers, 'node_modules'), { recursive: true });
execFileSync('tar', ['xzf', tarball, '-C', work]);
renameSync(join(work, 'package'), join(consumers, 'node_modules/unified-billing'));

// Valid everywhere: one import from each entry point, used so the types are read.
const usesEveryEntry = `import { BillingError, billingEvents, createClient, isBillingError, type UsageInfo } from 'unified-billing';
import { REFERENCE_PATHS, startReferenceBackend, type ReferenceBackend } from 'unified-billing/testing';
import { BillingProvider, billingStores, useBilling, useUsage, type BillingProviderProps } from 'unified-billing/react';
import { reduxDevtools, type DevtoolsExtension, type DevtoolsHook } from 'unified-billing/devtools';
import { defineBillingElements, type BillingGateElement } from 'unified-billing/element';
import { otelTracing, type OtelTracing } from 'unified-billing/otel';

export async function main(): Promise<UsageInfo | null> {
  const backend: ReferenceBackend = await startReferenceBackend({ users: [] });
  const client = createClient({ baseUrl: backend.url, appKey: 'consumer' });
  const stores = billingStores(client.billing);
  const hook: (billing: typeof client.billing) => UsageInfo | null = useUsage;
  const props: BillingProviderProps = { create: () => createClient({ baseUrl: backend.url, appKey: 'consumer' }), user: 'u1' };
  const provider: [typeof props, unknown, () => typeof client.billing] = [props, BillingProvider, useBilling];
  const path: string = REFERENCE_PATHS.consume;
  const extension: DevtoolsExtension = { connect: () => ({ init: () => undefined, send: () => undefined }) };
  const devtools: DevtoolsHook = reduxDevtools({ name: 'consumer', extension });
  createClient({ baseUrl: backend.url, appKey: 'consumer', devtools }).billing.dispose();
  const tracing: OtelTracing = otelTracing({ recordIds: false });
  createClient({ baseUrl: backend.url, appKey: 'consumer', events: billingEvents(tracing), fetch: tracing.fetch }).billing.dispose();
  // No DOM in Node: registering does nothing; the tag's type comes from HTMLElementTagNameMap.
  defineBillingElements();
  const gate: BillingGateElement | null = typeof document === 'undefined' ? null : document.createElement('billing-gate');
  try {
    await client.billing.consume();
  } catch (error) {
    if (isBillingError(error) && error instanceof BillingError) console.log(error.code, path, hook, provider, gate);
  }
  await backend.close();
  return stores.usage.getSnapshot();
}
`;
// The symptom of types masquerading as CJS: this compiled, then crashed at run
// time, since the ESM build has no default export. It must not compile.
const defaultImport = `import billing from 'unified-billing';
export const client = billing.createClient({ baseUrl: 'http://billing.test', appKey: 'consumer' });
`;

const modes = [
  { name: 'node10', module: 'commonjs', moduleResolution: 'node10', type: 'commonjs', file: 'main.ts' },
  { name: 'node16-cjs', module: 'node16', moduleResolution: 'node16', type: 'commonjs', file: 'main.ts' },
  { name: 'node16-esm', module: 'node16', moduleResolution: 'node16', type: 'module', file: 'main.ts' },
  { name: 'bundler', module: 'esnext', moduleResolution: 'bundler', type: 'module', file: 'main.ts' },
  // What Metro does for React Native: the same types must resolve.
  {
    name: 'bundler-react-native',
    module: 'esnext',
    moduleResolution: 'bundler',
    type: 'module',
    file: 'main.ts',
    customConditions: ['react-native'],
  },
];

function typeCheck(dir, mode, files, { types = ['node'], ...options } = {}) {
  const tsconfig = {
    compilerOptions: {
      module: mode.module,
      moduleResolution: mode.moduleResolution,
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types,
      ...options,
      ...(mode.customConditions ? { customConditions: mode.customConditions } : {}),
      strict: true,
      noEmit: true,
      // Our declaration files are checked too, as a strict user's build would.
      skipLibCheck: false,
    },
    files,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const run = spawnSync(bin('tsc'), ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}`.trim() };
}

for (const mode of modes) {
  const dir = join(consumers, mode.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${mode.name}`, type: mode.type }));
  writeFileSync(join(dir, mode.file), usesEveryEntry);
  const result = typeCheck(dir, mode, [mode.file]);
  console.log(
    `${mode.name}: imports from '.', './testing', './react', './devtools', './otel' and './element' ${result.ok ? 'type-check' : 'FAIL'}`,
  );
  if (!result.ok) {
    console.log(result.output);
    failures.push(`consumer ${mode.name} does not type-check`);
  }
}

{
  const mode = modes.find((candidate) => candidate.name === 'node16-esm');
  const dir = join(consumers, 'node16-esm-default-import');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer-default-import', type: 'module' }));
  writeFileSync(join(dir, 'main.ts'), defaultImport);
  const result = typeCheck(dir, mode, ['main.ts']);
  const refused = !result.ok && /TS1192/.test(result.output);
  console.log(
    `node16-esm: a default import is ${refused ? 'refused (TS1192), as the ESM build has no default export' : 'NOT refused'}`,
  );
  if (!refused) {
    console.log(result.output);
    failures.push('node16-esm accepts a default import the ESM build lacks');
  }
}

step("the testing kit's in-process API without @types/node (a jsdom project, skipLibCheck off)");
// Outside the repository: from inside it, 'node:http' would resolve to its @types/node and
// hide the problem (issue 31, point 6). The project has the package and rxjs, nothing else.
const inProcessOnly = `import {
  createReferenceBackend,
  createTestClock,
  REFERENCE_PATHS,
  type InProcessReferenceBackend,
  type ReferenceUser,
} from 'unified-billing/testing';
import { createClient } from 'unified-billing';

const alice: ReferenceUser = { token: 'a', freeRemaining: 1, freeTotal: 1, creditsPerUse: 1, creditsBalance: 5 };
const backend: InProcessReferenceBackend = createReferenceBackend({ users: [alice] });
const clock = createTestClock();
const client = createClient({ baseUrl: 'http://billing.test', appKey: 'jsdom', fetch: backend.fetch, scheduler: clock });
backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 503 });
// The kit's types are real, not \`any\`: a wrong fault is an error.
// @ts-expect-error no such fault kind
backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'explode' });
export const settled: Promise<boolean> = clock.settle(client.billing.consume()).then((result) => result.isCredit);
`;
const noNode = join(tmpdir(), 'unified-billing-no-node-types');
rmSync(noNode, { recursive: true, force: true });
mkdirSync(join(noNode, 'node_modules'), { recursive: true });
cpSync(join(consumers, 'node_modules/unified-billing'), join(noNode, 'node_modules/unified-billing'), {
  recursive: true,
});
symlinkSync(join(root, 'node_modules/rxjs'), join(noNode, 'node_modules/rxjs'), 'dir');
for (const mode of modes.filter((candidate) => candidate.name !== 'bundler-react-native')) {
  const dir = join(noNode, mode.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `no-node-${mode.name}`, type: mode.type }));
  writeFileSync(join(dir, 'main.ts'), inProcessOnly);
  const result = typeCheck(dir, mode, ['main.ts'], { types: [] });
  console.log(`${mode.name}: the in-process API with types: [] ${result.ok ? 'type-checks' : 'FAILS'}`);
  if (!result.ok) {
    console.log(result.output);
    failures.push(`the in-process testing API does not type-check without @types/node (${mode.name})`);
  }
}
rmSync(noNode, { recursive: true, force: true });

step("'./element' without @types/react; React JSX for its tags through './element/react'");
// A Vue, Angular or plain TypeScript app: no @types package at all, and our declarations checked.
const usesElementOnly = `import { createClient } from 'unified-billing';
import { defineBillingElements, type BillingDenial, type BillingGateElement } from 'unified-billing/element';

defineBillingElements();
const { billing } = createClient({ baseUrl: 'https://api.example.com', appKey: 'consumer' });
const gate: BillingGateElement | null = document.querySelector('billing-gate');
if (gate) gate.billing = billing;
gate?.addEventListener('billing-denied', (event) => {
  const denial: BillingDenial = event.detail;
  console.log(denial.creditsNeeded);
});
`;
// In the temporary folder: below the repository, TypeScript would find its node_modules/@types/react.
const bare = mkdtempSync(join(tmpdir(), 'unified-billing-element-'));
try {
  mkdirSync(join(bare, 'node_modules'));
  cpSync(join(consumers, 'node_modules/unified-billing'), join(bare, 'node_modules/unified-billing'), {
    recursive: true,
  });
  symlinkSync(join(root, 'node_modules/rxjs'), join(bare, 'node_modules/rxjs'), 'dir');
  for (const name of ['bundler', 'node16-esm', 'node16-cjs']) {
    const mode = modes.find((candidate) => candidate.name === name);
    const dir = join(bare, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `element-${name}`, type: mode.type }));
    writeFileSync(join(dir, 'main.ts'), usesElementOnly);
    const result = typeCheck(dir, mode, ['main.ts'], { types: [] });
    console.log(`${name}: './element' with no @types/react ${result.ok ? 'type-checks' : 'FAIL'}`);
    if (!result.ok) {
      console.log(result.output);
      failures.push(`'./element' does not type-check without @types/react under ${name}`);
    }
  }
} finally {
  rmSync(bare, { recursive: true, force: true });
}

// A React app: both tags typed in JSX once './element/react' is imported.
const usesElementJsx = `import { createClient } from 'unified-billing';
import { defineBillingElements, type BillingDenial } from 'unified-billing/element';
import 'unified-billing/element/react';

defineBillingElements();
const { billing } = createClient({ baseUrl: 'https://api.example.com', appKey: 'consumer' });
export const bar = (
  <div>
    <billing-meter billing={billing} unit="export" />
    <billing-gate
      billing={billing}
      onbilling-granted={(event) => console.log(event.detail.freeRemaining)}
      onbilling-denied={(event) => console.log((event.detail satisfies BillingDenial).creditsNeeded)}
    >
      <button type="button">Export</button>
    </billing-gate>
  </div>
);
`;
// Each line a mistake that must be a type error (TS2322) on that line: the tags are typed, not just known.
const wrongJsx = [
  `import 'unified-billing/element/react';`,
  `export const meter = <billing-meter billing={42} />;`,
  `export const gate = <billing-gate billing="billing" />;`,
  `export const handler = <billing-gate onbilling-granted={(event: CustomEvent<number>) => event.detail} />;`,
];
for (const name of ['bundler', 'node16-esm', 'node16-cjs']) {
  const mode = modes.find((candidate) => candidate.name === name);
  const dir = join(consumers, `react-jsx-${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `react-jsx-${name}`, type: mode.type }));
  writeFileSync(join(dir, 'main.tsx'), usesElementJsx);
  // An import TypeScript cannot resolve is an error too (by default a side-effect import is not checked).
  const result = typeCheck(dir, mode, ['main.tsx'], {
    types: [],
    jsx: 'react-jsx',
    noUncheckedSideEffectImports: true,
  });
  console.log(`${name}: both tags in React JSX with './element/react' ${result.ok ? 'type-check' : 'FAIL'}`);
  if (!result.ok) {
    console.log(result.output);
    failures.push(`React JSX with './element/react' does not type-check under ${name}`);
  }
}
{
  const mode = modes.find((candidate) => candidate.name === 'bundler');
  const dir = join(consumers, 'react-jsx-wrong');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'react-jsx-wrong', type: 'module' }));
  writeFileSync(join(dir, 'wrong.tsx'), wrongJsx.join('\n') + '\n');
  const result = typeCheck(dir, mode, ['wrong.tsx'], { types: [], jsx: 'react-jsx' });
  const errors = [...result.output.matchAll(/wrong\.tsx\((\d+),\d+\): error (TS\d+)/g)].map(
    ([, line, code]) => `${line}:${code}`,
  );
  const expected = ['2:TS2322', '3:TS2322', '4:TS2322'];
  const refused = JSON.stringify(errors) === JSON.stringify(expected);
  console.log(
    `bundler: a wrong billing prop (a number, a string) and a mistyped event handler are ${refused ? 'refused (TS2322 each)' : 'NOT refused as expected'}`,
  );
  if (!refused) {
    console.log(`expected ${expected.join(', ')}; got ${errors.join(', ') || 'none'}\n${result.output}`);
    failures.push("React JSX with './element/react' does not refuse a wrong billing prop or handler");
  }
}

step("the 'react-native' export condition, resolved by Node with and without --conditions=react-native");
// Run in the consumers' folder, so 'unified-billing' resolves through the
// unpacked package's exports as in a user's project.
const probe = `import { createRequire } from 'node:module';
import { startReferenceBackend } from 'unified-billing/testing';
const require = createRequire(process.cwd() + '/');
const esm = await import('unified-billing');
const cjs = require('unified-billing');
const backend = await startReferenceBackend({
  users: [{ token: 't1', freeRemaining: 1, freeTotal: 1, creditsPerUse: 1, creditsBalance: 0 }],
});
// No fetch option: the build's default fetch and id serve.
const client = esm.createClient({ baseUrl: backend.url, appKey: 'probe', headers: { Authorization: 'Bearer t1' } });
const result = await client.billing.consume();
client.billing.dispose();
await backend.close();
console.log(JSON.stringify({
  esmFile: import.meta.resolve('unified-billing'),
  cjsFile: require.resolve('unified-billing'),
  esm: Object.keys(esm).sort(),
  cjs: Object.keys(cjs).sort(),
  consumed: result.freeRemaining === 0 && !result.isCredit && !result.isBlacklisted,
  externalIds: backend.charges().map((charge) => charge.externalId),
}));`;
function resolveWith(conditions) {
  const run = spawnSync(process.execPath, [...conditions, '--input-type=module', '-e', probe], {
    cwd: consumers,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`node ${conditions.join(' ')} probe failed:\n${run.stdout}${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop());
}
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const plain = resolveWith([]);
const native = resolveWith(['--conditions=react-native']);
const unpacked = join(consumers, 'node_modules/unified-billing');
const packageImports = (file) =>
  [...readFileSync(join(unpacked, file), 'utf8').matchAll(/(?:from\s*|require\()["']([^"'./][^"']*)["']/g)].map(
    (match) => match[1],
  );
const expectations = [
  [
    [plain, native].every((run) => run.esmFile.endsWith('/dist/index.mjs') && run.cjsFile.endsWith('/dist/index.cjs')),
    'with and without the condition, import and require get dist/index.mjs and dist/index.cjs (one build)',
  ],
  [
    [plain.cjs, native.esm, native.cjs].every((keys) => JSON.stringify(keys) === JSON.stringify(plain.esm)),
    `both formats export the same ${plain.esm.length} names`,
  ],
  [
    ['dist/index.mjs', 'dist/index.cjs'].every((file) => packageImports(file).every((name) => name === 'rxjs')),
    'the build imports no package but rxjs',
  ],
  [
    [plain, native].every((run) => run.consumed && run.externalIds.length === 1 && UUID_V4.test(run.externalIds[0])),
    'both charge a consume with a v4 id through the global fetch',
  ],
];
for (const [ok, what] of expectations) {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
  if (!ok) console.log(JSON.stringify({ plain, native }, null, 2));
  if (!ok) failures.push(`react-native condition: not true that ${what}`);
}

if (failures.length > 0) {
  console.error(`\ncheck-package: FAILED\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  '\ncheck-package: attw, publint, the consumer type checks (element without @types/react, React JSX) and the react-native condition are clean',
);
