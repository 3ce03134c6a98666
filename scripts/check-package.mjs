// Checks the package as a user receives it (run after `npm run build`):
// packs it, runs @arethetypeswrong/cli and publint on the tarball, then
// type-checks tiny consumer projects that import '.', './testing' and
// './react' from the unpacked tarball under node10, node16 (CJS and ESM) and
// bundler resolution. Any problem fails: attw exits 1 on one, and every
// publint message counts, suggestions included.
//
//   node scripts/check-package.mjs [tarball]   (packs the repository when omitted)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
const usesEveryEntry = `import { BillingError, createClient, isBillingError, type UsageInfo } from 'unified-billing';
import { REFERENCE_PATHS, startReferenceBackend, type ReferenceBackend } from 'unified-billing/testing';
import { billingStores, useUsage } from 'unified-billing/react';

export async function main(): Promise<UsageInfo | null> {
  const backend: ReferenceBackend = await startReferenceBackend({ users: [] });
  const client = createClient({ baseUrl: backend.url, appKey: 'consumer' });
  const stores = billingStores(client.billing);
  const hook: (billing: typeof client.billing) => UsageInfo | null = useUsage;
  const path: string = REFERENCE_PATHS.consume;
  try {
    await client.billing.consume();
  } catch (error) {
    if (isBillingError(error) && error instanceof BillingError) console.log(error.code, path, hook);
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
];

function typeCheck(dir, mode, files) {
  const tsconfig = {
    compilerOptions: {
      module: mode.module,
      moduleResolution: mode.moduleResolution,
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: ['node'],
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
  console.log(`${mode.name}: imports from '.', './testing' and './react' ${result.ok ? 'type-check' : 'FAIL'}`);
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

if (failures.length > 0) {
  console.error(`\ncheck-package: FAILED\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('\ncheck-package: attw, publint and the consumer type checks are clean');
