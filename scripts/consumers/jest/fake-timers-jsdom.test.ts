/**
 * @jest-environment jsdom
 */
// The same under the jsdom environment, whose timers Jest fakes on the window.
import { fakeTimerCases } from './fake-timer-cases';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());
fakeTimerCases(test, 'jest-fake-timers-jsdom');
