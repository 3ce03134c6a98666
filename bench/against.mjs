// `npm run bench:against -- <commit> [rounds]`: this tree's `consume()` over raw fetch, side by side in one
// process with the same of another commit (bench/wire/against.ts), e.g. the commit before a merge whose
// speed is in question. The other commit's lib/ is taken with `git archive` into node_modules/.cache,
// so the working tree and its branches are left alone.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [ref, roundsArg = '30'] = process.argv.slice(2);
if (!ref) throw new Error('usage: npm run bench:against -- <commit> [rounds]');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
const sha = git('rev-parse', '--verify', `${ref}^{commit}`).trim();
// Inside node_modules, so both bundles' external packages resolve as from the repository.
const cache = join(root, 'node_modules/.cache/unified-billing-bench');
const other = join(cache, `tree-${sha.slice(0, 12)}`);
mkdirSync(other, { recursive: true });
execFileSync('sh', ['-c', `git archive ${sha} lib | tar -x -C "${other}"`], { cwd: root });
const outfile = join(cache, 'against.cjs');
await build({
  entryPoints: [join(root, 'bench/wire/against.ts')],
  outfile,
  bundle: true,
  alias: { 'other-tree': other },
  // Both trees as an app's production build sees them: development diagnostics dropped.
  define: { __DEV__: 'false' },
  packages: 'external',
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  logLevel: 'warning',
});
const { measureAgainst } = createRequire(import.meta.url)(outfile);
const rounds = Number(roundsArg);
const here = [];
const there = [];
for (let round = 0; round < rounds; round++) {
  const { here: a, other: b } = await measureAgainst();
  here.push(a);
  there.push(b);
}
const mean = (xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
const standardError = (xs) =>
  Math.sqrt(xs.reduce((sum, x) => sum + (x - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length);
const differences = here.map((x, i) => x - there[i]);
const line = (name, xs) =>
  `${name.padEnd(22)} ${mean(xs).toFixed(4)}x  (standard error ${standardError(xs).toFixed(4)})`;
console.log(`consume() / raw POST, ${rounds} rounds of 400 charged consumes, interleaved in one process`);
console.log(line('this tree', here));
console.log(line(`${sha.slice(0, 7)}`, there));
console.log(line('difference', differences).replace(/x /, '  '));
