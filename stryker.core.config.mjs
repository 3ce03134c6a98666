// One core file at a time on the shared machine (docs/reliability.md, "Mutation score"):
// `npx stryker run stryker.core.config.mjs --mutate lib/core/reducer.ts`. Only the specs that
// reach lib/core run: the pure-core specs, and the client and store specs that drive the reducer
// through the public barrel. One test process, so a loaded machine does not time mutants out.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  mutate: ['lib/core/**/*.ts'],
  jest: {
    ...base.jest,
    config: {
      roots: ['<rootDir>/spec/core', '<rootDir>/spec/client', '<rootDir>/spec/store'],
    },
  },
  concurrency: 1,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental-core.json',
  htmlReporter: { fileName: 'reports/mutation/core.html' },
  jsonReporter: { fileName: 'reports/mutation/core.json' },
};
