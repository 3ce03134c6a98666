// Under Jest's fake timers (all faked, the default): the cases in fake-timer-cases.ts.
import { fakeTimerCases } from './fake-timer-cases';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());
fakeTimerCases(test, 'jest-fake-timers');
