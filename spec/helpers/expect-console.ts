import { declareConsole, type ConsoleCall, type ConsoleLevel } from '../setup/harness-state';

export type { ConsoleCall, ConsoleLevel };

/**
 * Declares that the running test (or, called outside a test, the whole file) expects
 * `console[level]` with a message matching `pattern` (a RegExp, or a string it contains).
 * Matching calls are not printed; the test fails if none came. Every other console.error
 * or console.warn fails the test (spec/setup/fail-on-unhandled.ts).
 *
 * @returns the matching calls so far, to assert more about them
 * @example
 * const warned = expectConsole('warn', /BroadcastChannel/);
 * createClient({ ...options, sync: tabSync() });
 * expect(warned[0]?.message).toContain('SecurityError');
 */
export function expectConsole(level: ConsoleLevel, pattern: RegExp | string): readonly ConsoleCall[] {
  return declareConsole(level, pattern, true).calls;
}

/**
 * Like {@link expectConsole}, for output that may or may not come (a race the test does not
 * control): matching calls are not printed and none is fine.
 *
 * @example
 * allowConsole('warn', 'unified-billing: storage refused');
 */
export function allowConsole(level: ConsoleLevel, pattern: RegExp | string): readonly ConsoleCall[] {
  return declareConsole(level, pattern, false).calls;
}
