import type { Config } from 'jest';

const config: Config = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  // Browser tests need Chromium and run through `npm run test:browser`.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/spec/browser/'],
  // Fails a test on an unhandled rejection, an RxJS unhandled error or an undeclared
  // console.error/console.warn (CONTRIBUTING.md, "Tests fail on what users would see").
  setupFiles: ['<rootDir>/spec/setup/dev-flag.ts'],
  setupFilesAfterEnv: ['<rootDir>/spec/setup/fail-on-unhandled.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }],
  },
  // docs/recipes and docs/examples import the package by its published names, as users do.
  moduleNameMapper: {
    '^unified-billing$': '<rootDir>/lib',
    '^unified-billing/(testing|react|devtools|otel)$': '<rootDir>/lib/$1',
  },
  testTimeout: 20000,
};

export default config;
