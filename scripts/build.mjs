// Builds dist/: ESM (.mjs) and CJS (.cjs) bundles of each entry point with
// esbuild, and declarations with tsc, rewritten into a .d.mts tree for import
// and a .d.cts tree for require (scripts/dual-types.mjs). Dependencies stay external, so users'
// bundlers dedupe rxjs with their own copy.
//
// Entries that reach lib/platform/ also get a browser build (dist/X.browser.*,
// the package's `browser` condition): there every lib/platform/Y.ts is
// replaced by lib/platform/Y.browser.ts, so the platform fetch and
// crypto.randomUUID serve instead of cross-fetch and uuid.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dualTypes } from './dual-types.mjs';
import { devFlag } from './dev-flag.cjs';

// esbuild tries resolve extensions in order: '.browser.ts' first makes
// './platform/default-fetch' resolve to default-fetch.browser.ts where it
// exists. Only lib/platform/ has such files. bench/size/measure-size.ts uses the same list.
const BROWSER_RESOLVE_EXTENSIONS = ['.browser.ts', '.ts', '.js', '.mjs', '.cjs', '.json'];

// Our dependencies stay external, and esbuild keeps an external import whose
// bindings go unused, since it cannot know that loading the package does
// nothing: an unused cross-fetch import would then still load cross-fetch and,
// in browsers, its whatwg-fetch polyfill. None of these packages is imported
// for a side effect (cross-fetch is the ponyfill, not the polyfill), so they
// are declared side-effect free and unused imports of them go.
const pureDependencies = {
  name: 'pure-dependencies',
  setup(build) {
    build.onResolve({ filter: /^(cross-fetch|uuid|rxjs|react)(\/|$)/ }, (args) => ({
      path: args.path,
      external: true,
      sideEffects: false,
    }));
  },
};

// A platform file with a browser twin must never reach a browser bundle:
// that would ship cross-fetch or uuid to browsers again.
function assertBrowserOnly(metafile, outfile) {
  const leaked = Object.keys(metafile.inputs).filter(
    (path) => /^lib\/platform\/[^/]+(?<!\.browser)\.ts$/.test(path) && existsSync(path.replace(/\.ts$/, '.browser.ts')),
  );
  if (leaked.length > 0) throw new Error(`${outfile} holds Node platform file(s): ${leaked.join(', ')}`);
}

const entries = [
  // The library itself must run in browsers: a Node built-in here fails the build.
  { name: 'index', source: 'lib/index.ts', platform: 'neutral', browser: true },
  { name: 'testing', source: 'lib/testing/index.ts', platform: 'node', browser: false },
  // React stays external (an optional peer dependency) and, like the core, runs
  // anywhere. It reaches no platform file (it takes the client it is given), so
  // it needs no browser build.
  { name: 'react', source: 'lib/react/index.ts', platform: 'neutral', browser: false },
  // The Redux DevTools bridge: its own entry, so only apps that import it carry it. It
  // reaches no platform file either (the extension is found on globalThis).
  { name: 'devtools', source: 'lib/devtools/index.ts', platform: 'neutral', browser: false },
  // The OpenTelemetry adapter: its own entry, so only apps that import it carry it and @opentelemetry/api
  // (an optional peer dependency, external like every package).
  { name: 'otel', source: 'lib/otel/index.ts', platform: 'neutral', browser: false },
  // <billing-meter> and <billing-gate>: their own entry, so only apps that import it carry them.
  // It imports types only from the main entry and defines nothing until called (a server imports it safely).
  { name: 'element', source: 'lib/element/index.ts', platform: 'neutral', browser: false },
  // Types only (Vue's GlobalComponents for the two tags); its empty module lets a plain `import` resolve too.
  { name: 'element-vue', source: 'lib/element/vue/index.ts', platform: 'neutral', browser: false },
  // Types only: JSX for the two tags in React (`declare module 'react'`), apart so that the element
  // entry's types need no @types/react. Its module is empty, so a plain `import` of it is harmless.
  { name: 'element-react', source: 'lib/element/react/index.ts', platform: 'neutral', browser: false },
].filter((entry) => existsSync(entry.source));

rmSync('dist', { recursive: true, force: true });
const started = Date.now();
const builds = entries.flatMap((entry) => [
  { ...entry, suffix: '', resolveExtensions: undefined },
  ...(entry.browser
    ? [{ ...entry, suffix: '.browser', platform: 'browser', resolveExtensions: BROWSER_RESOLVE_EXTENSIONS }]
    : []),
]);
for (const entry of builds) {
  for (const [format, extension] of [
    ['esm', 'mjs'],
    ['cjs', 'cjs'],
  ]) {
    const outfile = `dist/${entry.name}${entry.suffix}.${extension}`;
    const result = await build({
      entryPoints: [entry.source],
      outfile,
      bundle: true,
      packages: 'external',
      platform: entry.platform,
      mainFields: ['module', 'main'],
      ...(entry.resolveExtensions ? { resolveExtensions: entry.resolveExtensions } : {}),
      format,
      target: 'es2020',
      // Left for the app's bundler to replace (scripts/dev-flag.cjs): for the browser platform
      // esbuild would otherwise fix it to "development" here, and every app would ship the
      // development messages.
      define: { 'process.env.NODE_ENV': 'process.env.NODE_ENV' },
      // A CJS build never calls import(): Jest runs CJS in a VM that refuses it without
      // --experimental-vm-modules, so the testing kit's lazy node:http becomes a require.
      ...(format === 'cjs' ? { supported: { 'dynamic-import': false } } : {}),
      sourcemap: true,
      metafile: true,
      plugins: [pureDependencies, devFlag],
      logLevel: 'warning',
    });
    if (entry.resolveExtensions) assertBrowserOnly(result.metafile, outfile);
    // A `__DEV__` left unexpanded would be a ReferenceError in every app.
    if (readFileSync(outfile, 'utf8').includes('__DEV__')) throw new Error(`${outfile} holds __DEV__`);
  }
  console.log(`built dist/${entry.name}${entry.suffix}.mjs and dist/${entry.name}${entry.suffix}.cjs`);
}
execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
const sources = dualTypes('dist/types');
console.log(`built dist/types (${sources} modules as .d.mts and .d.cts) in ${Date.now() - started} ms`);
