// Mutation run for the pure core and the transport (`npm run test:mutation`, not in CI:
// about 20 minutes on two cores). Only the specs that exercise those two folders run;
// docs/reliability.md records the last score and why each surviving mutant survives.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['lib/core/**/*.ts', 'lib/transport/**/*.ts'],
  testRunner: 'jest',
  jest: {
    configFile: 'jest.config.ts',
    // Jest's related-test lookup only sees files under `roots`: with lib/ outside them it
    // missed every spec that reaches lib/core through the client (the first run ran 103
    // tests of 284). perTest coverage picks each mutant's tests anyway.
    enableFindRelatedTests: false,
    config: {
      roots: [
        '<rootDir>/spec/core',
        '<rootDir>/spec/transport',
        '<rootDir>/spec/shared',
        '<rootDir>/spec/client',
        '<rootDir>/spec/store',
      ],
    },
  },
  coverageAnalysis: 'perTest',
  // A shared two-core machine: two test processes, and room for a loaded one.
  concurrency: 2,
  timeoutMS: 20000,
  timeoutFactor: 3,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  thresholds: { high: 90, low: 80, break: null },
};
