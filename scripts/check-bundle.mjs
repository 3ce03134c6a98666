// A real bundler over the built package (run after `npm run build`): webpack 5
// in production mode builds a tiny app that imports only `createClient`, and
// the bundle must hold none of tabSync, reloadSafe, refetchOn, billingEvents, the testing kit, the
// React bindings, the Redux DevTools bridge, the OpenTelemetry adapter or the billing elements (and an
// app with billingEvents() but not the adapter holds neither the adapter nor @opentelemetry/api). Each feature is recognised by strings only its own code
// carries; a second app per feature uses it, and each of its markers must
// then be in the bundle, so the absence check can fail. The same app must
// bundle neither cross-fetch (with its whatwg-fetch polyfill) nor uuid: the
// package's `browser` condition gives it the platform fetch and
// crypto.randomUUID. Built once more with the condition switched off, the
// app must then hold both, so that check can fail too. Prints the sizes.
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

// The packages a browser app must not get from us, by the folder they come from.
const PLATFORM_DEPENDENCIES = ['cross-fetch', 'whatwg-fetch', 'node-fetch', 'uuid'];
const packagesIn = (files) =>
  PLATFORM_DEPENDENCIES.filter((name) => files.some((file) => file.includes(`/node_modules/${name}/`)));

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

// webpack's conditions for target web, without 'browser': what a bundler that
// ignores the condition gives the same app (cross-fetch's browser ponyfill, uuid's browser build).
const withoutBrowserCondition = await bundle('only createClient, no browser condition', app, {
  conditionNames: ['import', 'module', 'webpack', 'production', 'default'],
});
const leaked = packagesIn(onlyClientFiles);
const control = packagesIn(withoutBrowserCondition.files);
console.log(
  `platform dependencies: ${leaked.length === 0 ? 'none' : `PRESENT (${leaked.join(', ')})`} in the createClient-only bundle; ` +
    `${control.join(', ') || 'NONE'} in the same app built without the browser condition ` +
    `(${gzipped(withoutBrowserCondition.code)} B gzipped, ${gzipped(withoutBrowserCondition.code) - gzipped(onlyClient)} B more)`,
);
if (leaked.length > 0) failures.push(`the createClient-only browser bundle holds ${leaked.join(', ')}`);
for (const name of ['cross-fetch', 'uuid']) {
  if (!control.includes(name)) failures.push(`${name} not seen in the app built without the browser condition`);
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
  '\ncheck-bundle: an app that imports only createClient bundles none of the opt-in code or development messages, and neither cross-fetch nor uuid',
);
