// `npm run bench:against -- <commit> [processes] [rounds]`: this tree's `consume()` over raw fetch, side by
// side with the same of another commit (bench/wire/against.ts), e.g. the commit before a merge whose speed
// is in question. The other commit's lib/ is taken with `git archive` into node_modules/.cache, so the
// working tree and its branches are left alone. Each process samples both trees in one loop; the
// processes run one after another, as a process's own layout and JIT favour one tree or the other by
// about as much as the difference sought: the figure is the mean over processes, with its standard error.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mean = (xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length;

if (process.argv[2] === '--child') {
  // One process: its rounds' mean ratios, as one JSON line for the parent.
  const [, , , outfile, rounds] = process.argv;
  const { measureAgainst } = createRequire(import.meta.url)(outfile);
  const here = [];
  const other = [];
  for (let round = 0; round < Number(rounds); round++) {
    const ratios = await measureAgainst();
    here.push(ratios.here);
    other.push(ratios.other);
  }
  console.log(JSON.stringify({ here: mean(here), other: mean(other) }));
  process.exit(0);
}

const [ref, processesArg = '8', roundsArg = '10'] = process.argv.slice(2);
if (!ref) throw new Error('usage: npm run bench:against -- <commit> [processes] [rounds]');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
const sha = git('rev-parse', '--verify', `${ref}^{commit}`).trim();
// Inside node_modules, so both bundles' external packages resolve as from the repository.
const cache = join(root, 'node_modules/.cache/unified-billing-bench');
const otherTree = join(cache, `tree-${sha.slice(0, 12)}`);
mkdirSync(otherTree, { recursive: true });
execFileSync('sh', ['-c', `git archive ${sha} lib | tar -x -C "${otherTree}"`], { cwd: root });
const outfile = join(cache, 'against.cjs');
await build({
  entryPoints: [join(root, 'bench/wire/against.ts')],
  outfile,
  bundle: true,
  alias: { 'other-tree': otherTree },
  // Both trees as an app's production build sees them: development diagnostics dropped.
  define: { __DEV__: 'false' },
  packages: 'external',
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  logLevel: 'warning',
});
const processes = Number(processesArg);
const here = [];
const other = [];
for (let i = 0; i < processes; i++) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', outfile, roundsArg], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`process ${i + 1} of ${processes} failed`);
  const ratios = JSON.parse(child.stdout);
  here.push(ratios.here);
  other.push(ratios.other);
}
const standardError = (xs) =>
  Math.sqrt(xs.reduce((sum, x) => sum + (x - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length);
const differences = here.map((x, i) => x - other[i]);
// One process has no spread to tell: its standard error is not printed.
const line = (name, xs) =>
  `${name.padEnd(22)} ${mean(xs).toFixed(4)}x` +
  (xs.length > 1 ? `  (standard error ${standardError(xs).toFixed(4)})` : '');
console.log(
  `consume() / raw POST: ${processes} process${processes === 1 ? '' : 'es'}, each ${roundsArg} rounds of 400 charged consumes a side in one loop`,
);
console.log(line('this tree', here));
console.log(line(sha.slice(0, 7), other));
console.log(line('difference', differences));
