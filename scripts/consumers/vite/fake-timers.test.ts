// Under Vitest's fake timers (`vi.useFakeTimers()` with its defaults): the cases in fake-timer-cases.ts.
import { afterEach, beforeEach, test, vi } from 'vitest';
import { fakeTimerCases } from './fake-timer-cases';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());
fakeTimerCases(test, 'vitest-fake-timers');
