import { format } from 'node:util';

// The state behind spec/setup/fail-on-unhandled.ts and spec/helpers/expect-console.ts. It
// lives on globalThis, not in this module, so a test that resets the module registry
// (jest.resetModules, isolateModules) still talks to the same guard.

export type ConsoleLevel = 'error' | 'warn';

export interface ConsoleCall {
  readonly level: ConsoleLevel;
  /** The arguments as `console` would print them (util.format). */
  readonly message: string;
  readonly args: readonly unknown[];
}

/** What a test declared it expects on the console (see expectConsole / allowConsole). */
export interface ConsoleExpectation {
  readonly level: ConsoleLevel;
  readonly pattern: RegExp | string;
  /** `true` for expectConsole: the test fails if no call matched. */
  readonly required: boolean;
  /** The calls that matched, in order. */
  readonly calls: ConsoleCall[];
}

export interface Problem {
  readonly kind: 'console' | 'rxjs-unhandled' | 'rxjs-stopped' | 'console-expectation';
  readonly message: string;
}

export interface HarnessState {
  /** Between the set-up's beforeEach and afterEach: problems belong to the running test. */
  inTest: boolean;
  readonly test: { expectations: ConsoleExpectation[]; problems: Problem[] };
  readonly file: { expectations: ConsoleExpectation[]; problems: Problem[] };
}

const KEY = Symbol.for('unified-billing.test-harness');

export function harnessState(): HarnessState {
  const holder = globalThis as unknown as Record<symbol, HarnessState | undefined>;
  return (holder[KEY] ??= {
    inTest: false,
    test: { expectations: [], problems: [] },
    file: { expectations: [], problems: [] },
  });
}

const scope = (state: HarnessState) => (state.inTest ? state.test : state.file);

/** Declares a console expectation in the current scope (the running test, else the file). */
export function declareConsole(level: ConsoleLevel, pattern: RegExp | string, required: boolean): ConsoleExpectation {
  const expectation: ConsoleExpectation = { level, pattern, required, calls: [] };
  scope(harnessState()).expectations.push(expectation);
  return expectation;
}

export function report(problem: Problem): void {
  scope(harnessState()).problems.push(problem);
}

const matches = (pattern: RegExp | string, message: string): boolean => {
  if (typeof pattern === 'string') return message.includes(pattern);
  pattern.lastIndex = 0; // a /g or /y pattern keeps its position between calls
  return pattern.test(message);
};

/**
 * Handles one console.error / console.warn call: a call that an expectation of the running
 * test or of the file matches is recorded there and swallowed (`true`); any other is a problem.
 */
export function onConsole(level: ConsoleLevel, args: readonly unknown[]): boolean {
  const state = harnessState();
  const message = format(...args);
  const call: ConsoleCall = { level, message, args };
  const candidates = state.inTest ? [...state.test.expectations, ...state.file.expectations] : state.file.expectations;
  const expectation = candidates.find((each) => each.level === level && matches(each.pattern, message));
  if (expectation) {
    expectation.calls.push(call);
    return true;
  }
  // Where the call came from, in the project's own code: the guard's and the packages' frames say little.
  const stack = (new Error().stack ?? '')
    .split('\n')
    .slice(1)
    .filter((line) => !/node_modules|spec[\\/]setup[\\/]/.test(line))
    .slice(0, 8)
    .join('\n');
  report({ kind: 'console', message: `unexpected console.${level}: ${message}\n${stack}` });
  return false;
}

/** Ends a scope: its problems plus every expectConsole that nothing matched; the scope is emptied. */
export function closeScope(which: 'test' | 'file'): Problem[] {
  const bucket = harnessState()[which];
  const missing = bucket.expectations
    .filter((each) => each.required && each.calls.length === 0)
    .map((each): Problem => ({
      kind: 'console-expectation',
      message: `expected a console.${each.level} matching ${String(each.pattern)}, none came`,
    }));
  const problems = [...bucket.problems.splice(0), ...missing];
  bucket.expectations.splice(0);
  return problems;
}

/** One error whose message lists every problem, for a hook to throw. */
export function problemsError(problems: readonly Problem[], where: string): Error {
  const lines = problems.map((problem, index) => `${index + 1}. [${problem.kind}] ${problem.message}`);
  const error = new Error(
    `${where}: ${problems.length} problem(s) the test harness does not allow (see CONTRIBUTING.md, "Tests fail on what users would see"):\n${lines.join('\n')}`,
  );
  error.stack = error.message; // the harness's own frames say nothing about the test
  return error;
}

/** An error or any thrown value, with its stack when it has one. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.stack ?? `${thrown.name}: ${thrown.message}`;
  return format(thrown);
}
