import base from './stryker.config.mjs';

/**
 * A Stryker run of one area (`core`, `transport`) on the shared machine: one test process,
 * incremental results per area, and only the specs in `MUTATION_SPECS` (comma-separated folders
 * or files), else `defaultSpecs` (docs/reliability.md, "Mutation score").
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function scopedConfig(area, defaultSpecs) {
  const specs = (process.env.MUTATION_SPECS ?? defaultSpecs).split(',');
  return {
    ...base,
    mutate: [`lib/${area}/**/*.ts`],
    jest: {
      ...base.jest,
      config: {
        roots: ['<rootDir>/spec'],
        testMatch: specs.map((spec) => `<rootDir>/${spec}${spec.endsWith('.ts') ? '' : '/**/*.spec.ts'}`),
      },
    },
    concurrency: 1,
    incremental: true,
    incrementalFile: `reports/stryker-incremental-${area}.json`,
    htmlReporter: { fileName: `reports/mutation/${area}.html` },
    jsonReporter: { fileName: `reports/mutation/${area}.json` },
  };
}
