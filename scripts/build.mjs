// Builds dist/: ESM (.mjs) and CJS (.cjs) bundles of each entry point with
// esbuild, and declarations with tsc, rewritten into a .d.mts tree for import
// and a .d.cts tree for require (scripts/dual-types.mjs). Peer dependencies stay external, so users'
// bundlers dedupe rxjs with their own copy.
//
// One build for every runtime: the package has no runtime dependency, and lib/platform/ reads the
// runtime's globals (fetch, crypto) when a call needs them, so browsers, Node, React Native (the
// `react-native` condition resolves here too) and server rendering get the same files.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dualTypes } from './dual-types.mjs';
import { devFlag } from './dev-flag.cjs';

// The peers stay external, and esbuild keeps an external import whose bindings go unused, since it
// cannot know that loading the package does nothing. Neither is imported for a side effect, so they
// are declared side-effect free and unused imports of them go.
const pureDependencies = {
  name: 'pure-dependencies',
  setup(build) {
    build.onResolve({ filter: /^(rxjs|react)(\/|$)/ }, (args) => ({
      path: args.path,
      external: true,
      sideEffects: false,
    }));
  },
};

const entries = [
  // The library itself must run in browsers and React Native: a Node built-in here fails the build.
  { name: 'index', source: 'lib/index.ts', platform: 'neutral' },
  { name: 'testing', source: 'lib/testing/index.ts', platform: 'node' },
  // React stays external (an optional peer dependency) and, like the core, runs anywhere.
  { name: 'react', source: 'lib/react/index.ts', platform: 'neutral' },
  // The Redux DevTools bridge: its own entry, so only apps that import it carry it (the extension is
  // found on globalThis).
  { name: 'devtools', source: 'lib/devtools/index.ts', platform: 'neutral' },
  // The OpenTelemetry adapter: its own entry, so only apps that import it carry it and @opentelemetry/api
  // (an optional peer dependency, external like every package).
  { name: 'otel', source: 'lib/otel/index.ts', platform: 'neutral' },
  // <billing-meter> and <billing-gate>: their own entry, so only apps that import it carry them.
  // It imports types only from the main entry and defines nothing until called (a server imports it safely).
  { name: 'element', source: 'lib/element/index.ts', platform: 'neutral' },
  // Types only (Vue's GlobalComponents for the two tags); its empty module lets a plain `import` resolve too.
  { name: 'element-vue', source: 'lib/element/vue/index.ts', platform: 'neutral' },
  // Types only: JSX for the two tags in React (`declare module 'react'`), apart so that the element
  // entry's types need no @types/react. Its module is empty, so a plain `import` of it is harmless.
  { name: 'element-react', source: 'lib/element/react/index.ts', platform: 'neutral' },
].filter((entry) => existsSync(entry.source));

rmSync('dist', { recursive: true, force: true });
const started = Date.now();
for (const entry of entries) {
  for (const [format, extension] of [
    ['esm', 'mjs'],
    ['cjs', 'cjs'],
  ]) {
    const outfile = `dist/${entry.name}.${extension}`;
    const { metafile } = await build({
      entryPoints: [entry.source],
      outfile,
      bundle: true,
      packages: 'external',
      platform: entry.platform,
      mainFields: ['module', 'main'],
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
    const text = readFileSync(outfile, 'utf8');
    // A `__DEV__` left unexpanded would be a ReferenceError in every app.
    if (text.includes('__DEV__')) throw new Error(`${outfile} holds __DEV__`);
    // What runs in React Native and browsers imports nothing but its peers (a node: module would break Metro).
    const imported = Object.values(metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
    const foreign = imported.filter((name) => !/^(rxjs|react|@opentelemetry\/api)(\/|$)/.test(name));
    if (entry.platform === 'neutral' && foreign.length > 0) throw new Error(`${outfile} imports ${foreign.join(', ')}`);
  }
  console.log(`built dist/${entry.name}.mjs and dist/${entry.name}.cjs`);
}
execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
const sources = dualTypes('dist/types');
console.log(`built dist/types (${sources} modules as .d.mts and .d.cts) in ${Date.now() - started} ms`);
