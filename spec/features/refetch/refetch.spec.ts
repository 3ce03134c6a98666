import { BillingError } from '../../../lib/shared/errors';
import { armRefetch, checkRefetch, type RefetchOptions } from '../../../lib/features/refetch/refetch';
import { VirtualClock } from '../../helpers/virtual-clock';

// Just enough of an EventTarget to count listeners and fire events.
class FakeTarget {
  private readonly listeners = new Map<string, Set<() => void>>();
  visibilityState = 'visible';
  addEventListener(type: string, listener: () => void): void {
    const set = this.listeners.get(type) ?? new Set();
    this.listeners.set(type, set.add(listener));
  }
  removeEventListener(type: string, listener: () => void): void {
    this.listeners.get(type)?.delete(listener);
  }
  fire(type: string): void {
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener();
  }
  get count(): number {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }
}

function rig(options: RefetchOptions) {
  const clock = new VirtualClock();
  const window = new FakeTarget();
  const document = new FakeTarget();
  const navigator = { onLine: true };
  const refetch = jest.fn();
  const disarm = armRefetch(options, { refetch, scheduler: clock, target: { window, document, navigator } });
  return { clock, window, document, navigator, refetch, disarm };
}

describe('armRefetch', () => {
  it('listens to focus, visibility and online, and the teardown removes every listener', () => {
    const { window, document, disarm } = rig({ onFocus: true, onOnline: true });
    expect([window.count, document.count]).toEqual([2, 1]);
    disarm();
    expect([window.count, document.count]).toEqual([0, 0]);
  });

  it('arms nothing for an empty option, nor for absent browser globals (Node)', () => {
    const { window, document, clock, disarm } = rig({});
    expect([window.count, document.count, clock.pending]).toEqual([0, 0, 0]);
    disarm();
    const clock2 = new VirtualClock();
    const refetch = jest.fn();
    armRefetch({ onFocus: true, onOnline: true }, { refetch, scheduler: clock2, target: {} })();
    expect(clock2.pending).toBe(0);
    expect(typeof globalThis.window).toBe('undefined'); // so the default target is empty here too
  });

  it('refetches when the page becomes visible or focused, not when it is hidden', () => {
    const { document, window, clock, refetch } = rig({ onFocus: true });
    document.visibilityState = 'hidden';
    document.fire('visibilitychange');
    expect(refetch).not.toHaveBeenCalled();
    document.visibilityState = 'visible';
    document.fire('visibilitychange');
    expect(refetch).toHaveBeenCalledTimes(1);
    clock.advanceBy(2_000);
    window.fire('focus');
    expect(refetch).toHaveBeenCalledTimes(2);
  });

  it('causes at most one refetch per 2 s from focus and online together', () => {
    const { document, window, clock, refetch } = rig({ onFocus: true, onOnline: true });
    document.fire('visibilitychange');
    window.fire('focus'); // a return to the tab fires both
    window.fire('online');
    clock.advanceBy(1_999);
    window.fire('focus');
    expect(refetch).toHaveBeenCalledTimes(1);
    clock.advanceBy(1);
    window.fire('online');
    expect(refetch).toHaveBeenCalledTimes(2);
  });

  it('is not muted by a scheduler clock set back', () => {
    const { window, clock, refetch } = rig({ onFocus: true });
    window.fire('focus');
    clock.frame -= 3_600_000; // an injected wall-clock scheduler, the clock set back an hour
    window.fire('focus');
    expect(refetch).toHaveBeenCalledTimes(2);
  });

  it('skips a focus while offline, so the online event that follows refetches', () => {
    const { window, navigator, clock, refetch } = rig({ onFocus: true, onOnline: true });
    navigator.onLine = false;
    window.fire('focus');
    clock.advanceBy(500);
    navigator.onLine = true;
    window.fire('online');
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('refetches every intervalMs in virtual time until the teardown', () => {
    const { clock, refetch, disarm } = rig({ intervalMs: 5_000 });
    const start = clock.now();
    const at: number[] = [];
    refetch.mockImplementation(() => at.push(clock.now() - start));
    clock.advanceBy(4_999);
    expect(at).toEqual([]);
    clock.advanceBy(10_001);
    expect(at).toEqual([5_000, 10_000, 15_000]);
    disarm();
    expect(clock.pending).toBe(0);
    clock.advanceBy(60_000);
    expect(at).toHaveLength(3);
  });
});

describe('checkRefetch', () => {
  it('is undefined when absent or asking for nothing, a copy otherwise', () => {
    expect(checkRefetch(undefined)).toBeUndefined();
    expect(checkRefetch({})).toBeUndefined();
    expect(checkRefetch({ onFocus: false, onOnline: false })).toBeUndefined();
    const given = { onOnline: true, intervalMs: 1_000 };
    const checked = checkRefetch(given);
    expect(checked).toEqual({ onFocus: undefined, onOnline: true, intervalMs: 1_000 });
    expect(checked).not.toBe(given);
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'refetch must be an object such as { onFocus: true } (got null)'],
    ['true', true, 'refetch must be an object such as { onFocus: true } (got true)'],
    ['a number', 5_000, 'refetch must be an object such as { onFocus: true } (got 5000)'],
    ['a string flag', { onFocus: 'yes' }, 'refetch.onFocus must be a boolean (got a string)'],
    ['a numeric flag', { onOnline: 1 }, 'refetch.onOnline must be a boolean (got 1)'],
    [
      'an interval below 1000',
      { intervalMs: 999 },
      'refetch.intervalMs must be an integer from 1000 to 2147483647 (got 999)',
    ],
    ['a fractional interval', { intervalMs: 1_500.5 }, '(got 1500.5)'],
    [
      'a string interval',
      { intervalMs: '5000' },
      'refetch.intervalMs must be an integer from 1000 to 2147483647 (got a string)',
    ],
    ['NaN', { intervalMs: NaN }, '(got NaN)'],
    ['an interval setTimeout cannot hold', { intervalMs: 2 ** 31 }, '(got 2147483648)'],
    ['a misspelled flag', { onfocus: true }, 'unknown refetch option "onfocus" (did you mean "onFocus"?)'],
  ])('throws invalid_argument for %s, naming the value that was wrong', (_name, value, message) => {
    expect(() => checkRefetch(value)).toThrow(BillingError);
    expect(() => checkRefetch(value)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(() => checkRefetch(value)).toThrow(message);
  });
});
