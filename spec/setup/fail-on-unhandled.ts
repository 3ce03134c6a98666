import { config } from 'rxjs';
import {
  closeScope,
  describeThrown,
  harnessState,
  onConsole,
  problemsError,
  report,
  type ConsoleLevel,
} from './harness-state';

// Runs before every spec file (setupFilesAfterEnv of jest.config.ts and jest.browser.config.ts).
// A test fails on what a user of the library would see go wrong:
// - an unhandled promise rejection (Jest reports those itself; the flush below makes it
//   report them against the test that caused them, not the next one);
// - an error RxJS sends to its unhandled-error path (`config.onUnhandledError`), or to a
//   subscriber that had already stopped (`config.onStoppedNotification`);
// - a console.error or console.warn the test did not declare with expectConsole() or
//   allowConsole() (spec/helpers/expect-console.ts). A `jest.spyOn(console, ...)` with a
//   mock implementation also counts as declared: the test took the output over.

// Captured before any test can install fake timers: the flush needs the real ones.
const realSetTimeout = setTimeout;
const realSetImmediate = setImmediate;

/**
 * Lets what the test left queued run now: promise jobs, Node's rejection tracking (it runs
 * after the microtask queue drains), immediates and zero-delay timers (RxJS reports its
 * unhandled errors from a zero-delay timer).
 */
async function flush(): Promise<void> {
  await new Promise<void>((resolve) => realSetImmediate(resolve));
  await new Promise<void>((resolve) => realSetTimeout(resolve, 0));
  await new Promise<void>((resolve) => realSetImmediate(resolve));
}

for (const level of ['error', 'warn'] as const satisfies readonly ConsoleLevel[]) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    // Declared calls are swallowed (an expected warning is not noise); the others are
    // printed too, so they show in place, and fail the test in afterEach.
    if (!onConsole(level, args)) original(...args);
  };
}

config.onUnhandledError = (error: unknown) => {
  report({ kind: 'rxjs-unhandled', message: `RxJS unhandled error: ${describeThrown(error)}` });
};
// An error delivered to a subscriber that has already stopped (completed, errored or
// unsubscribed) reaches no one; values and completions after the end are ordinary
// teardown races, so only errors count.
config.onStoppedNotification = (notification) => {
  if (notification.kind !== 'E') return;
  report({
    kind: 'rxjs-stopped',
    message: `RxJS error after the subscriber stopped: ${describeThrown(notification.error)}`,
  });
};

beforeEach(() => {
  harnessState().inTest = true;
});

async function afterEachTest(): Promise<void> {
  await flush();
  harnessState().inTest = false;
  const problems = closeScope('test');
  if (problems.length > 0) throw problemsError(problems, 'after the test');
}
afterEach(afterEachTest);

// Jest runs the afterEach hooks of one describe block in the order they were declared, and
// this file declares its hooks before the spec does: moved to the end of the root block, the
// check runs after every afterEach of the spec (its teardown included), so what a teardown
// leaves behind is still blamed on the test. Jest keeps its state under a private symbol; if
// a later Jest moves it, the check merely runs earlier.
beforeAll(() => {
  const symbol = Object.getOwnPropertySymbols(globalThis).find((each) => each.description === 'JEST_STATE_SYMBOL');
  const state = symbol ? (globalThis as unknown as Record<symbol, unknown>)[symbol] : undefined;
  const hooks = (state as { rootDescribeBlock?: { hooks?: Array<{ fn: unknown }> } } | undefined)?.rootDescribeBlock
    ?.hooks;
  const index = hooks?.findIndex((hook) => hook.fn === afterEachTest) ?? -1;
  if (hooks && index >= 0) hooks.push(...hooks.splice(index, 1));
});

afterAll(async () => {
  await flush();
  const problems = closeScope('file');
  if (problems.length > 0) throw problemsError(problems, 'outside any test (module load, beforeAll, afterAll)');
});
