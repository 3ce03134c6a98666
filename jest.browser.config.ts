import type { Config } from 'jest';

// `npm run test:browser`: the playground in headless Chromium (see spec/browser/).
const config: Config = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/spec/browser'],
  testMatch: ['**/*.spec.ts'],
  // Fails a test on an unhandled rejection, an RxJS unhandled error or an undeclared
  // console.error/console.warn (CONTRIBUTING.md, "Tests fail on what users would see").
  setupFiles: ['<rootDir>/spec/setup/dev-flag.ts'],
  setupFilesAfterEnv: ['<rootDir>/spec/setup/fail-on-unhandled.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }],
  },
  testTimeout: 30000,
};

export default config;
