import { BillingError } from '../../../lib/shared/errors';
import { refetchOn, type FeatureSetup } from '../../../lib';
import { armRefetch, type RefetchOptions } from '../../../lib/features/refetch/refetch';
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
  // Each refetch is a join of the store's usage fetches.
  const refetch = jest.fn();
  const disarm = armRefetch(options, {
    usage: { join: async () => void refetch() },
    scheduler: clock,
    target: { window, document, navigator },
  });
  return { clock, window, document, navigator, refetch, disarm };
}

describe('armRefetch', () => {
  it('listens to focus, visibility and online, and the teardown removes every listener', () => {
    const { window, document, disarm } = rig({ focus: true, online: true });
    expect([window.count, document.count]).toEqual([2, 1]);
    disarm();
    expect([window.count, document.count]).toEqual([0, 0]);
  });

  it('arms nothing for an empty option, nor for absent browser globals (Node)', () => {
    const { window, document, clock, disarm } = rig({});
    expect([window.count, document.count, clock.pending]).toEqual([0, 0, 0]);
    disarm();
    const clock2 = new VirtualClock();
    const join = jest.fn(async () => undefined);
    armRefetch({ focus: true, online: true }, { usage: { join }, scheduler: clock2, target: {} })();
    expect(clock2.pending).toBe(0);
    expect(typeof globalThis.window).toBe('undefined'); // so the default target is empty here too
  });

  it('refetches when the page becomes visible or focused, not when it is hidden', () => {
    const { document, window, clock, refetch } = rig({ focus: true });
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
    const { document, window, clock, refetch } = rig({ focus: true, online: true });
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
    const { window, clock, refetch } = rig({ focus: true });
    window.fire('focus');
    clock.frame -= 3_600_000; // an injected wall-clock scheduler, the clock set back an hour
    window.fire('focus');
    expect(refetch).toHaveBeenCalledTimes(2);
  });

  it('skips a focus while offline, so the online event that follows refetches', () => {
    const { window, navigator, clock, refetch } = rig({ focus: true, online: true });
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

describe('refetchOn', () => {
  const setup = { scheduler: new VirtualClock() } as unknown as FeatureSetup;
  const effects = (options: unknown) => refetchOn(options as RefetchOptions).install(setup).effects ?? [];

  it('arms nothing when asking for nothing, one effect otherwise', () => {
    expect(refetchOn({}).kind).toBe('refetch');
    expect(effects({})).toEqual([]);
    expect(effects({ focus: false, online: false })).toEqual([]);
    expect(effects({ online: true, intervalMs: 1_000 })).toHaveLength(1);
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'refetchOn() needs an object such as { focus: true } (got null)'],
    ['true', true, 'refetchOn() needs an object such as { focus: true } (got true)'],
    ['a number', 5_000, 'refetchOn() needs an object such as { focus: true } (got 5000)'],
    ['a string flag', { focus: 'yes' }, 'refetchOn() focus must be a boolean (got a string)'],
    ['a numeric flag', { online: 1 }, 'refetchOn() online must be a boolean (got 1)'],
    [
      'an interval below 1000',
      { intervalMs: 999 },
      'refetchOn() intervalMs must be an integer from 1000 to 2147483647 (got 999)',
    ],
    ['a fractional interval', { intervalMs: 1_500.5 }, '(got 1500.5)'],
    [
      'a string interval',
      { intervalMs: '5000' },
      'refetchOn() intervalMs must be an integer from 1000 to 2147483647 (got a string)',
    ],
    ['NaN', { intervalMs: NaN }, '(got NaN)'],
    ['an interval setTimeout cannot hold', { intervalMs: 2 ** 31 }, '(got 2147483648)'],
    ['a misspelled flag', { focsu: true }, 'unknown refetchOn() option "focsu" (did you mean "focus"?)'],
    ['the field names of 0.1', { onFocus: true }, 'unknown refetchOn() option "onFocus" (did you mean "focus"?)'],
    ['the field names of 0.1', { onOnline: true }, 'unknown refetchOn() option "onOnline" (did you mean "online"?)'],
  ])('throws invalid_argument for %s, naming the value that was wrong', (_name, value, message) => {
    const make = () => refetchOn(value as RefetchOptions);
    expect(make).toThrow(BillingError);
    expect(make).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    expect(make).toThrow(message);
  });
});
