// `npm run bench`: bundles bench/main.ts (and the library it measures) with
// esbuild, as the published build is, then runs it in this very process, so
// every figure is taken side by side on the same warm VM.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devFlag } from '../scripts/dev-flag.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside node_modules, so the bundle's external packages resolve as from the repository.
const outfile = join(root, 'node_modules/.cache/unified-billing-bench/main.cjs');

await build({
  entryPoints: [join(root, 'bench/main.ts')],
  outfile,
  bundle: true,
  plugins: [devFlag],
  packages: 'external',
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  logLevel: 'warning',
});
if (typeof globalThis.gc !== 'function') {
  process.stderr.write('warning: run with node --expose-gc (npm run bench does) for the heap figures\n');
}
const { main } = createRequire(import.meta.url)(outfile);
await main(root, process.argv.slice(2));
