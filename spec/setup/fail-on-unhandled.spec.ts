import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import browserConfig from '../../jest.browser.config';
import nodeConfig from '../../jest.config';

const ROOT = resolve(__dirname, '../..');
const SETUP = '<rootDir>/spec/setup/fail-on-unhandled.ts';

interface AssertionResult {
  title: string;
  status: string;
  failureMessages: string[];
}

// The fixture in a child Jest with the project's own config, so what is proven is the
// set-up as `npm test` wires it, not a copy.
async function runFixture(): Promise<Map<string, AssertionResult>> {
  const jestBin = join(ROOT, 'node_modules/jest/bin/jest.js');
  const args = [
    jestBin,
    '-c',
    join(ROOT, 'jest.config.ts'),
    '--roots',
    '<rootDir>/spec/setup/fixtures',
    '--testMatch',
    '**/triggers.fixture.ts',
    '--runInBand',
    '--json',
  ];
  // A failing child is the point: its exit code is 1, its report is on stdout.
  const output = await promisify(execFile)(process.execPath, args, { cwd: ROOT, maxBuffer: 16 << 20 }).catch(
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
  const report = JSON.parse(output.stdout) as { testResults: Array<{ assertionResults: AssertionResult[] }> };
  const results = report.testResults.flatMap((file) => file.assertionResults);
  return new Map(results.map((result) => [result.title, result]));
}

describe('the test harness fails a test on what users would see', () => {
  let results: Map<string, AssertionResult>;
  beforeAll(async () => {
    results = await runFixture();
  }, 180_000);

  const failure = (title: string) => {
    const result = results.get(title);
    expect(result?.status).toBe('failed');
    return (result?.failureMessages ?? []).join('\n');
  };
  const passes = (title: string) => {
    const result = results.get(title);
    expect(result?.failureMessages).toEqual([]);
    expect(result?.status).toBe('passed');
  };

  it('runs every test of the fixture', () => {
    expect(results.size).toBe(13);
  });

  it('an unhandled rejection fails the test that made it, also when a timer made it after the test returned', () => {
    expect(failure('fails: unhandled rejection')).toContain('rejection-canary');
    expect(failure('fails: unhandled rejection a zero-delay timer leaves behind')).toContain('late-rejection-canary');
    passes('passes: the test after a late rejection');
  });

  it('an RxJS unhandled error fails the test, and so does an error sent to a stopped subscriber', () => {
    expect(failure('fails: RxJS unhandled error')).toMatch(/RxJS unhandled error: Error: rxjs-canary/);
    expect(failure('fails: RxJS error after the subscriber stopped')).toMatch(
      /RxJS error after the subscriber stopped: Error: stopped-canary/,
    );
  });

  it('an undeclared console.error or console.warn fails the test, also from a root afterEach', () => {
    expect(failure('fails: console.error')).toMatch(/unexpected console\.error: console-error-canary/);
    expect(failure('fails: console.warn')).toMatch(/unexpected console\.warn: console-warn-canary/);
    expect(failure('fails: console.error in a root afterEach')).toMatch(/unexpected console\.error: teardown-noise/);
  });

  it('expectConsole passes on the expected call and fails when none came; allowConsole and spies pass', () => {
    expect(failure('fails: an expected warning that never came')).toContain(
      'expected a console.warn matching /BroadcastChannel/, none came',
    );
    passes('passes: an expected warning');
    passes('passes: an allowed error that did not come, and one that did');
    passes('passes: a console spy takes the output over');
    passes('passes: a handled rejection and a caught RxJS error');
  });
});

describe('both Jest configs load the harness', () => {
  it.each([
    ['jest.config.ts', nodeConfig],
    ['jest.browser.config.ts', browserConfig],
  ])('%s', (_name, config) => {
    expect(config.setupFilesAfterEnv).toContain(SETUP);
  });
});
