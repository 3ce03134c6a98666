import { checkSnapshot, freePeriodEndsAt, toSnapshot } from '../../lib/core/snapshot';
import { initialState, type BillingState } from '../../lib/core/state';

// The free period a snapshot (and the DevTools hook) reports, read from the
// state directly: the store's timer clears an ended period, but a late timer
// (a throttled background tab, a frozen page) leaves its end in the state for a while.

const NOW = 50_000; // scheduler ms
const WALL = 1_700_000_000_000; // wall-clock ms at the same moment
const QUOTA = { isEnabled: true, freeRemaining: 1, freeTotal: 3, creditsPerUse: 2, creditsBalance: 10 };
const stateEnding = (freePeriodEnd: number | null): BillingState => ({
  ...initialState,
  quota: QUOTA,
  freePeriodEnd,
  status: { ...initialState.status, loaded: true, fetchedAt: NOW - 1_000 },
});

describe('the free period of a snapshot', () => {
  it('is its end on the wall clock while it runs', () => {
    expect(freePeriodEndsAt(stateEnding(NOW + 1), NOW, WALL)).toBe(WALL + 1);
    expect(toSnapshot(stateEnding(NOW + 29_000), NOW, WALL)).toEqual({
      v: 1,
      usage: QUOTA,
      fetchedAt: WALL - 1_000,
      freePeriodEndsAt: WALL + 29_000,
    });
  });

  it('is null once it has ended, even before the timer has cleared it', () => {
    expect(freePeriodEndsAt(stateEnding(NOW - 1), NOW, WALL)).toBeNull();
    expect(toSnapshot(stateEnding(NOW - 1), NOW, WALL)?.freePeriodEndsAt).toBeNull();
  });

  it('is null at the very millisecond it ends (the free period is [start, end))', () => {
    expect(freePeriodEndsAt(stateEnding(NOW), NOW, WALL)).toBeNull();
  });

  it('is null when there is none', () => {
    expect(freePeriodEndsAt(stateEnding(null), NOW, WALL)).toBeNull();
  });
});

describe('an invalid bootstrap in a production build', () => {
  const before = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = before;
  });

  it('names the field in the short message', () => {
    process.env.NODE_ENV = 'production';
    const snapshot = { v: 1, usage: QUOTA, fetchedAt: -1, freePeriodEndsAt: null };
    expect(() => checkSnapshot(snapshot)).toThrow(
      expect.objectContaining({ code: 'invalid_argument', message: 'invalid bootstrap.fetchedAt' }),
    );
  });
});
