import { reduce } from '../../lib/core/reducer';
import { FREE_PERIOD_MS, initialState, type BillingState, type Quota } from '../../lib/core/state';

const quota: Quota = { isEnabled: true, freeRemaining: 3, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 };
const loaded = (seq: number, patch: Partial<Quota> = {}): BillingState =>
  reduce(initialState, { type: 'usage/loaded', now: 0, seq, quota: { ...quota, ...patch } });

describe('reduce()', () => {
  it('is pure: the input state is not modified', () => {
    const before = loaded(1);
    const snapshot = JSON.stringify(before);
    reduce(before, { type: 'consume/charged', seq: 2, now: 0, freeRemaining: 2, isCredit: true });
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  it('a charge starts the free period at `now` and records the free count', () => {
    const next = reduce(loaded(1), { type: 'consume/charged', seq: 2, now: 500, freeRemaining: 2, isCredit: false });
    expect(next.freePeriodEnd).toBe(500 + FREE_PERIOD_MS);
    expect(next.quota?.freeRemaining).toBe(2);
    expect(next.quota?.creditsBalance).toBe(10);
  });

  it('a credit charge lowers the balance by the price, never below zero', () => {
    const low = loaded(1, { creditsBalance: 1 });
    expect(
      reduce(loaded(1), { type: 'consume/charged', seq: 2, now: 0, freeRemaining: 0, isCredit: true }).quota
        ?.creditsBalance,
    ).toBe(8);
    expect(
      reduce(low, { type: 'consume/charged', seq: 2, now: 0, freeRemaining: 0, isCredit: true }).quota?.creditsBalance,
    ).toBe(0);
  });

  it('an older usage answer does not overwrite a newer charge', () => {
    const charged = reduce(loaded(1), { type: 'consume/charged', seq: 3, now: 0, freeRemaining: 2, isCredit: false });
    const late = reduce(charged, {
      type: 'usage/loaded',
      now: 0,
      seq: 2,
      quota: { ...quota, freeRemaining: 3, creditsBalance: 50 },
    });
    expect(late.quota?.freeRemaining).toBe(2);
    // The balance was not touched by the charge, so the GET's balance is the newest known.
    expect(late.quota?.creditsBalance).toBe(50);
  });

  it('an older balance answer loses to a newer one', () => {
    const fresh = reduce(loaded(1), { type: 'balance/loaded', seq: 5, balance: 4 });
    expect(reduce(fresh, { type: 'balance/loaded', seq: 4, balance: 99 })).toBe(fresh);
  });

  it('a balance before any usage is not cached, but remembered for the first usage answer', () => {
    const early = reduce(initialState, { type: 'balance/loaded', seq: 2, balance: 4 });
    expect(early.quota).toBeNull();
    expect(reduce(early, { type: 'usage/loaded', now: 0, seq: 1, quota }).quota?.creditsBalance).toBe(4);
  });

  it('only the timer of the current period ends it', () => {
    const charged = reduce(loaded(1), { type: 'consume/charged', seq: 2, now: 0, freeRemaining: 2, isCredit: false });
    expect(reduce(charged, { type: 'freePeriod/ended', end: 12 })).toBe(charged);
    expect(reduce(charged, { type: 'freePeriod/ended', end: FREE_PERIOD_MS }).freePeriodEnd).toBeNull();
  });

  it('insufficient sets the free count to 0', () => {
    expect(reduce(loaded(1), { type: 'consume/insufficient', seq: 2 }).quota?.freeRemaining).toBe(0);
  });
});
