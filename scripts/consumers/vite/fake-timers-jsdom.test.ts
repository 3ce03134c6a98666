// @vitest-environment jsdom
// The same under the jsdom environment.
import { afterEach, beforeEach, test, vi } from 'vitest';
import { fakeTimerCases } from './fake-timer-cases';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());
fakeTimerCases(test, 'vitest-fake-timers-jsdom');
