import type { Config } from 'jest';

// `npm run test:browser`: the playground in headless Chromium (see spec/browser/).
const config: Config = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/spec/browser'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }],
  },
  testTimeout: 30000,
};

export default config;
