// Issue 24: the error specs once more as a production build runs them. The
// development layer (lib/shared/dev.ts) reads `process.env.NODE_ENV` when an
// error is built, so setting it here, before any spec is loaded, is what a
// bundler's replacement does (spec/perf/size.spec.ts checks that a production
// bundle holds none of the development code). Each spec keeps its own module
// registry and hooks, as in a file of its own; where its messages differ, it
// expects the short one (spec/helpers/mode.ts), and every other fact the same.
const SPECS = [
  '../transport/error-messages.spec',
  '../transport/fetch-setup.spec',
  '../transport/network-errors.spec',
  '../transport/decode.spec',
  '../client/option-names.spec',
  '../security/canary-sweep.spec',
  '../security/encoded-credentials.spec',
  '../security/input-refusal.spec',
  '../security/prototype-pollution.spec',
  '../shared/to-json.spec',
];

process.env.NODE_ENV = 'production';

describe.each(SPECS)('production build: %s', (spec) => {
  jest.isolateModules(() => jest.requireActual(spec));
});
