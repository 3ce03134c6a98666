// Builds dist/: ESM (.mjs) and CJS (.cjs) bundles of each entry point with
// esbuild, and declarations with tsc, rewritten into a .d.mts tree for import
// and a .d.cts tree for require (scripts/dual-types.mjs). Dependencies stay external, so users'
// bundlers dedupe rxjs with their own copy.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dualTypes } from './dual-types.mjs';

const entries = [
  // The library itself must run in browsers: a Node built-in here fails the build.
  { name: 'index', source: 'lib/index.ts', platform: 'neutral' },
  { name: 'testing', source: 'lib/testing/index.ts', platform: 'node' },
  // React stays external (an optional peer dependency) and, like the core, runs anywhere.
  { name: 'react', source: 'lib/react/index.ts', platform: 'neutral' },
].filter((entry) => existsSync(entry.source));

rmSync('dist', { recursive: true, force: true });
const started = Date.now();
for (const entry of entries) {
  for (const [format, extension] of [
    ['esm', 'mjs'],
    ['cjs', 'cjs'],
  ]) {
    await build({
      entryPoints: [entry.source],
      outfile: `dist/${entry.name}.${extension}`,
      bundle: true,
      packages: 'external',
      platform: entry.platform,
      mainFields: ['module', 'main'],
      format,
      target: 'es2020',
      sourcemap: true,
      logLevel: 'warning',
    });
  }
  console.log(`built dist/${entry.name}.mjs and dist/${entry.name}.cjs`);
}
execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
const sources = dualTypes('dist/types');
console.log(`built dist/types (${sources} modules as .d.mts and .d.cts) in ${Date.now() - started} ms`);
