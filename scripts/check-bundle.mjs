// A real bundler over the built package (run after `npm run build`): webpack 5
// in production mode builds a tiny app that imports only `createClient`, and
// the bundle must hold none of tabSync, reloadSafe, refetchOn, billingEvents, the testing kit, the
// React bindings, the Redux DevTools bridge, the OpenTelemetry adapter or the billing elements (and an
// app with billingEvents() but not the adapter holds neither the adapter nor @opentelemetry/api). Each feature is recognised by strings only its own code
// carries; a second app per feature uses it, and each of its markers must
// then be in the bundle, so the absence check can fail. The same app must
// bundle no package but rxjs (and its tslib): the package has no runtime
// dependency. Built once more with React Native's conditions (as Metro
// resolves it: `react-native`, `require`), it must get the same one build,
// as CommonJS. Prints the sizes.
// (An entry's exports are unused in an app bundle, so the apps put what they
// use on globalThis: otherwise webpack would rightly drop it.)
//
//   node scripts/check-bundle.mjs
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import webpack from 'webpack';

const root = resolve(import.meta.dirname, '..');
// Inside node_modules so the package's own dependencies resolve as in a user's app.
const work = join(root, 'node_modules/.cache/unified-billing-bundle');
const client = `createClient({ baseUrl: 'https://billing.example', appKey: 'app' })`;

const features = [
  {
    name: 'tabSync',
    markers: ['BroadcastChannel', 'waiting for another tab'],
    app: `import { createClient, tabSync } from 'unified-billing';
globalThis.billing = createClient({ baseUrl: 'https://billing.example', appKey: 'app', sync: tabSync() }).billing;`,
  },
  {
    name: 'reloadSafe',
    markers: ['periods', 'storage failed'],
    app: `import { createClient, reloadSafe } from 'unified-billing';
globalThis.billing = createClient({ baseUrl: 'https://billing.example', appKey: 'app', storage: reloadSafe(localStorage) }).billing;`,
  },
  {
    name: 'refetchOn',
    markers: ['visibilitychange', 'refetchOn() needs an object'],
    app: `import { createClient, refetchOn } from 'unified-billing';
globalThis.billing = createClient({ baseUrl: 'https://billing.example', appKey: 'app', refetch: refetchOn({ focus: true }) }).billing;`,
  },
  {
    name: 'billingEvents',
    markers: ['freePeriod:started', 'billing goes on, later throws are not reported'],
    app: `import { billingEvents, createClient } from 'unified-billing';
globalThis.billing = createClient({ baseUrl: 'https://billing.example', appKey: 'app', events: billingEvents() }).billing;`,
  },
  {
    name: 'the testing kit',
    markers: ['dropAfterApply', 'unknown fault kind'],
    app: `import { startReferenceBackend } from 'unified-billing/testing';
globalThis.backend = startReferenceBackend({ users: [] });`,
  },
  {
    name: 'the React bindings',
    markers: ['useSyncExternalStore', 'getServerSnapshot'],
    app: `import { createClient } from 'unified-billing';
import { useUsage } from 'unified-billing/react';
const billing = ${client}.billing;
globalThis.useBilling = () => useUsage(billing);`,
  },
  {
    name: 'the Redux DevTools bridge',
    markers: ['__REDUX_DEVTOOLS_EXTENSION__', 'pause'],
    app: `import { createClient } from 'unified-billing';
import { reduxDevtools } from 'unified-billing/devtools';
globalThis.billing = createClient({ baseUrl: 'https://billing.example', appKey: 'app', devtools: reduxDevtools() }).billing;`,
  },
  {
    name: 'the OpenTelemetry adapter',
    markers: ['consume credits', 'billing.lock_acquired'],
    app: `import { billingEvents, createClient } from 'unified-billing';
import { otelTracing } from 'unified-billing/otel';
globalThis.billing = createClient({ baseUrl: 'https://billing.example', appKey: 'app', events: billingEvents(otelTracing()) }).billing;`,
  },
  {
    name: 'the billing elements',
    markers: ['billing-granted', 'Loading your quota'],
    app: `import { defineBillingElements } from 'unified-billing/element';
globalThis.define = defineBillingElements;`,
  },
];

// Every file whose code is in the output, concatenated modules opened.
function bundledFiles(compilation) {
  const files = new Set();
  for (const chunk of compilation.chunks) {
    for (const module of compilation.chunkGraph.getChunkModulesIterable(chunk)) {
      for (const inner of module.modules ?? [module]) if (inner.resource) files.add(inner.resource);
    }
  }
  return [...files];
}

// The npm packages a bundle holds, by the folder they come from (the package itself is its real path).
// The app's own file (under `work`) is not one.
const packagesIn = (files) => [
  ...new Set(
    files
      .filter((file) => !file.startsWith(work))
      .flatMap((file) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []),
  ),
];

function bundle(name, source, resolve = {}, mode = 'production') {
  const dir = join(work, name.replace(/\W+/g, '-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.mjs'), `${source}\n`);
  const config = {
    mode,
    context: dir,
    entry: './app.mjs',
    output: { path: join(dir, 'out'), filename: 'bundle.js' },
    target: 'web',
    devtool: false,
    // React is the app's own (a peer dependency), as is Node for the testing kit.
    externals: { react: 'React' },
    externalsPresets: { node: name === 'the testing kit' },
    performance: { hints: false },
    resolve,
  };
  return new Promise((resolvePromise, reject) => {
    webpack(config, (error, stats) => {
      if (error) return reject(error);
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      const code = readFileSync(join(dir, 'out/bundle.js'), 'utf8');
      resolvePromise({ code, files: bundledFiles(stats.compilation) });
    });
  });
}

rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'node_modules'), { recursive: true });
if (!existsSync(join(root, 'dist/index.mjs'))) throw new Error('dist/ is missing: run `npm run build` first');
// The app resolves 'unified-billing' through its package.json exports, as a user's does.
symlinkSync(root, join(work, 'node_modules/unified-billing'), 'dir');

const failures = [];
const app = `import { createClient } from 'unified-billing';
globalThis.billing = ${client}.billing;
globalThis.billing.consume().then((result) => console.log(result));`;
const { code: onlyClient, files: onlyClientFiles } = await bundle('only createClient', app);
const gzipped = (code) => gzipSync(code).length;
console.log(
  `webpack ${webpack.version}, production, target web: an app importing only createClient is ${Buffer.byteLength(onlyClient)} B minified, ${gzipped(onlyClient)} B gzipped (rxjs included)`,
);

// No runtime dependency: rxjs (a peer) and its tslib only.
const packages = packagesIn(onlyClientFiles).sort();
console.log(`packages in the createClient-only bundle: ${packages.join(', ')}`);
if (packages.join() !== 'rxjs,tslib') failures.push(`the createClient-only bundle holds ${packages.join(', ')}`);
// Metro's conditions: the `react-native` condition, then `require`.
const reactNative = await bundle('only createClient, react-native conditions', app, {
  conditionNames: ['react-native', 'require', 'default'],
});
const ownFiles = (files) =>
  files.filter((file) => file.startsWith(join(root, 'dist/'))).map((f) => f.slice(root.length + 1));
console.log(`with React Native's conditions: ${ownFiles(reactNative.files).join(', ')}`);
if (ownFiles(reactNative.files).join() !== 'dist/index.cjs') {
  failures.push(`React Native's conditions resolve ${ownFiles(reactNative.files).join(', ')}, not dist/index.cjs`);
}

// The development layer (lib/shared/dev.ts, issue 24): webpack's production mode replaces
// process.env.NODE_ENV, and the long messages, redaction and option-name checks must go
// with the branch it makes dead. Its development mode keeps them, so the check can fail.
const DEVELOPMENT_MARKERS = ['did you mean', 'check baseUrl', '[redacted]'];
const { code: development } = await bundle('only createClient, development', app, {}, 'development');
const kept = DEVELOPMENT_MARKERS.filter((marker) => onlyClient.includes(marker));
const unseen = DEVELOPMENT_MARKERS.filter((marker) => !development.includes(marker));
console.log(
  `development messages: ${kept.length === 0 ? 'absent' : `PRESENT (${kept.join(', ')})`} from the production bundle; ` +
    `${unseen.length === 0 ? 'all seen' : `NOT seen (${unseen.join(', ')})`} in a development build`,
);
if (kept.length > 0) failures.push(`the production bundle keeps development messages: ${kept.join(', ')}`);
if (unseen.length > 0) failures.push(`development messages not in a development build: ${unseen.join(', ')}`);

for (const feature of features) {
  const found = feature.markers.filter((marker) => onlyClient.includes(marker));
  const { code: withFeature } = await bundle(feature.name, feature.app);
  const missing = feature.markers.filter((marker) => !withFeature.includes(marker));
  console.log(
    `${feature.name}: ${found.length === 0 ? 'absent' : `PRESENT (${found.join(', ')})`} from the createClient-only bundle; ` +
      `markers ${missing.length === 0 ? 'all seen' : `NOT seen (${missing.join(', ')})`} in a bundle that imports it`,
  );
  if (found.length > 0) failures.push(`${feature.name} is in the createClient-only bundle: ${found.join(', ')}`);
  if (missing.length > 0)
    failures.push(`marker(s) of ${feature.name} not in a bundle that uses it: ${missing.join(', ')}`);
}

// An app with the events feature but not the adapter pays nothing for it: neither its code nor the API.
const eventsApp = features.find((feature) => feature.name === 'billingEvents');
const otel = features.find((feature) => feature.name === 'the OpenTelemetry adapter');
const { code: eventsOnly, files: eventsFiles } = await bundle('billingEvents without otel', eventsApp.app);
const { files: otelFiles } = await bundle(otel.name, otel.app);
const otelIn = (code, files) =>
  otel.markers.some((marker) => code.includes(marker)) || files.some((file) => file.includes('/@opentelemetry/'));
console.log(
  `the OpenTelemetry adapter and @opentelemetry/api: ${otelIn(eventsOnly, eventsFiles) ? 'PRESENT' : 'absent'} in an app with billingEvents() alone; ` +
    `@opentelemetry/api ${otelFiles.some((file) => file.includes('/@opentelemetry/api/')) ? 'seen' : 'NOT seen'} in one that imports the adapter`,
);
if (otelIn(eventsOnly, eventsFiles))
  failures.push('an app with billingEvents() alone bundles the OpenTelemetry adapter or its API');
if (!otelFiles.some((file) => file.includes('/@opentelemetry/api/'))) {
  failures.push('@opentelemetry/api not seen in an app that imports unified-billing/otel');
}

if (failures.length > 0) {
  console.error(`\ncheck-bundle: FAILED\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  '\ncheck-bundle: an app that imports only createClient bundles none of the opt-in code or development messages, and no package but rxjs',
);
