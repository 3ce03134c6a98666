// Runs a TypeScript entry of the playground with nothing but the installed
// dev dependencies: esbuild bundles it (lib/ sources included, npm packages
// left external) into node_modules/.cache, and Node imports the result. No
// `npm run build` first, so `npm start` works on a fresh clone and never
// touches dist/, which other commands may be rebuilding at the same moment.
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { devFlag } from '../scripts/dev-flag.cjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2];
if (entry === undefined) {
  console.error('usage: node playground/run-ts.mjs <entry.ts>');
  process.exit(2);
}
const cacheDir = join(root, 'node_modules', '.cache', 'unified-billing-playground');
mkdirSync(cacheDir, { recursive: true });
// One file per process: two playgrounds starting at once must not share one.
const outfile = join(cacheDir, `${basename(entry, '.ts')}-${process.pid}.mjs`);
await build({
  entryPoints: [resolve(root, entry)],
  outfile,
  bundle: true,
  plugins: [devFlag],
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node18',
  sourcemap: 'inline',
  logLevel: 'warning',
});
process.env.PLAYGROUND_ROOT = root;
try {
  await import(pathToFileURL(outfile).href);
} finally {
  // Loaded modules stay in memory; the file is no longer needed.
  rmSync(outfile, { force: true });
}
