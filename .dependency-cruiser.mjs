// The layers of lib/ and their direction (docs/architecture.md), checked by `npm run lint:deps`
// (part of `npm run lint`, which CI runs):
//
//   shared  <-  core  <-  transport, store  <-  features  <-  client, rx  <-  index.ts
//   platform: the runtime's globals the client falls back on (fetch, crypto), over shared/ only.
//   react/, devtools/, testing/, otel/ (the sub-entries): the public barrel, the feature protocol, shared/.
//
// Each rule below names a layer and the folders it may import; type-only imports count too (a
// type import upward is the same knot in the design, even if it vanishes from the bundle).
const LIB = '^lib/';

// Files allowed to break their layer's rule with a warning only, while a branch that rewrites them
// is in flight; empty since issue 24 landed, so every violation fails.
const STORE_BRANCH = [];
const FOLDER_CYCLES = 'error';

// "From <folder> to anything in lib/ outside these": one rule per layer, an error for every file
// but STORE_BRANCH's, whose violations of the same rule are warnings.
const onlyInto = (name, from, allowed, comment) => {
  const to = { path: LIB, pathNot: [`^lib/${from}`, ...allowed.map((folder) => `^lib/${folder}`)] };
  const known = STORE_BRANCH.filter((file) => file.startsWith(`^lib/${from}`));
  return [
    { name, comment, severity: 'error', from: { path: `^lib/${from}`, pathNot: STORE_BRANCH }, to },
    ...(known.length ? [{ name: `${name} (store branch)`, comment, severity: 'warn', from: { path: known }, to }] : []),
  ];
};

// The feature protocol, which the sub-entries implement: the BillingFeature/FeatureSetup types and
// the devtools hook (the effect that hands a bridge the public state).
const PROTOCOL = ['features/feature\\.ts$', 'features/devtools-hook\\.ts$'];

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle between files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'No import cycle between folders either (store -> features -> store is one, with no file cycle).',
      severity: FOLDER_CYCLES,
      scope: 'folder',
      from: { path: LIB },
      to: { path: LIB, circular: true },
    },
    {
      name: 'no-orphans',
      comment: 'A file of lib/ nothing imports is dead code; the entry points and the browser twins are not.',
      severity: 'error',
      from: {
        orphan: true,
        path: LIB,
        pathNot: [
          '^lib/index\\.ts$',
          '^lib/(react|devtools|testing|otel)/index\\.ts$',
          // The build swaps them in for their Node twin (scripts/build.mjs, resolveExtensions).
          '\\.browser\\.ts$',
          // Imported where `__DEV__` is expanded (scripts/dev-flag.cjs), and the flag's declaration.
          '^lib/shared/dev(-flag\\.d)?\\.ts$',
        ],
      },
      to: {},
    },
    ...onlyInto('shared-is-the-floor', 'shared/', [], 'shared/ imports nothing from lib/.'),
    ...onlyInto('core-only-shared', 'core/', ['shared/'], 'core/ is pure and sees only shared/.'),
    ...onlyInto('transport-only-shared', 'transport/', ['shared/'], 'The backend calls know no state.'),
    ...onlyInto('store-below-features', 'store/', ['shared/', 'core/', 'transport/'], 'The store knows no feature.'),
    ...onlyInto(
      'features-below-client',
      'features/',
      ['shared/', 'core/', 'transport/', 'store/'],
      'Features plug into the store through features/feature.ts; they never see the client.',
    ),
    ...onlyInto(
      'client-not-above-itself',
      'client/',
      ['shared/', 'core/', 'transport/', 'store/', 'features/', 'platform/'],
      'client/ assembles every layer, but not the barrel, rx/ or a sub-entry.',
    ),
    ...onlyInto('rx-only-shared', 'rx/', ['shared/'], 'consumeWith takes the billing module by its shape.'),
    ...onlyInto(
      'platform-over-shared',
      'platform/',
      ['shared/'],
      "The runtime's globals, read at call time; errors from shared/.",
    ),
    ...onlyInto(
      'barrel-not-sub-entries',
      'index\\.ts$',
      ['shared/', 'core/', 'transport/', 'store/', 'features/', 'client/', 'rx/'],
      'The main entry must not pull in react/, devtools/ or testing/.',
    ),
    ...onlyInto(
      'sub-entries-use-the-public-surface',
      '(react|devtools|testing|otel)/',
      ['index\\.ts$', 'shared/', ...PROTOCOL],
      'A sub-entry imports the barrel, the feature protocol or shared/ (public value types and wire constants).',
    ),
    {
      name: 'testing-backend-not-http',
      comment: 'The reference backend answers a request as data; only http/ knows node:http and fetch.',
      severity: 'error',
      from: { path: '^lib/testing/backend/' },
      to: { path: '^lib/testing/http/' },
    },
    {
      name: 'testing-root-below-both',
      comment: "testing/'s root files (public types, faults, the test clock) are used by backend/ and http/.",
      severity: 'error',
      from: { path: '^lib/testing/[^/]+$', pathNot: '^lib/testing/index\\.ts$' },
      to: { path: '^lib/testing/(backend|http)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are edges too: a cycle of types is still a cycle of the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
