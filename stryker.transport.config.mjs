// The transport alone on the shared machine (docs/reliability.md, "Mutation score"):
// `npx stryker run stryker.transport.config.mjs` (or `--mutate lib/transport/decode.ts` for one
// file). Only the specs that reach lib/transport run: its own specs, the error classes it
// builds, and the client specs that send its requests. One test process.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate: ['lib/transport/**/*.ts'],
  jest: {
    ...base.jest,
    config: {
      roots: ['<rootDir>/spec/transport', '<rootDir>/spec/shared', '<rootDir>/spec/client'],
    },
  },
  concurrency: 1,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental-transport.json',
  htmlReporter: { fileName: 'reports/mutation/transport.html' },
  jsonReporter: { fileName: 'reports/mutation/transport.json' },
};
