import fc from 'fast-check';
import { decide } from '../../lib/core/decide';
import { preview, type BillingPreview } from '../../lib/core/preview';
import { initialState, type BillingState, type Quota } from '../../lib/core/state';
import { subtractAmount } from '../../lib/shared/subtract-amount';
import { expectedReason } from '../model/model-state';

const NOW = 1_000;
const quota = (patch: Partial<Quota> = {}): Quota => ({
  isEnabled: true,
  freeRemaining: 0,
  freeTotal: 5,
  creditsPerUse: 10,
  creditsBalance: 40,
  ...patch,
});
const state = (patch: Partial<BillingState> = {}): BillingState => ({ ...initialState, ...patch });
const inPeriod = { freePeriodEnd: NOW + 5_000 };

describe('preview()', () => {
  it.each<[string, BillingState, BillingPreview]>([
    [
      'before the first fetch: insufficient, nothing known',
      state(),
      { canProceed: false, reason: 'insufficient', cost: null, freeAfter: null, balanceAfter: null },
    ],
    [
      'before the first fetch in a free period: free, quota unknown',
      state(inPeriod),
      { canProceed: true, reason: 'free_period', cost: 0, freeAfter: null, balanceAfter: null },
    ],
    [
      'a free period: costs nothing, leaves the quota as it is',
      state({ ...inPeriod, quota: quota({ freeRemaining: 2 }) }),
      { canProceed: true, reason: 'free_period', cost: 0, freeAfter: 2, balanceAfter: 40 },
    ],
    [
      'a free count: costs nothing, takes one free use',
      state({ quota: quota({ freeRemaining: 2 }) }),
      { canProceed: true, reason: 'free_count', cost: 0, freeAfter: 1, balanceAfter: 40 },
    ],
    [
      'credits: "This export costs 10 credits (40 → 30)"',
      state({ quota: quota() }),
      { canProceed: true, reason: 'credits', cost: 10, freeAfter: 0, balanceAfter: 30 },
    ],
    [
      'exactly enough credits: proceeds down to 0',
      state({ quota: quota({ creditsBalance: 10 }) }),
      { canProceed: true, reason: 'credits', cost: 10, freeAfter: 0, balanceAfter: 0 },
    ],
    [
      'insufficient: the price, the balance unchanged',
      state({ quota: quota({ creditsBalance: 9 }) }),
      { canProceed: false, reason: 'insufficient', cost: 10, freeAfter: 0, balanceAfter: 9 },
    ],
    [
      'an ended free period no longer counts',
      state({ freePeriodEnd: NOW, quota: quota({ creditsBalance: 9 }) }),
      { canProceed: false, reason: 'insufficient', cost: 10, freeAfter: 0, balanceAfter: 9 },
    ],
  ])('%s', (_name, given, expected) => {
    const result = preview(given, NOW);
    expect(result).toEqual(expected);
    expect(Object.isFrozen(result)).toBe(true);
  });

  it('a free count with no credits still proceeds for free', () => {
    const result = preview(state({ quota: quota({ freeRemaining: 1, creditsBalance: 0 }) }), NOW);
    expect(result).toEqual({ canProceed: true, reason: 'free_count', cost: 0, freeAfter: 0, balanceAfter: 0 });
  });

  it('matches the billing rule of the model, not decide(), and never previews a negative balance (property)', () => {
    // The oracle is the model's own rule (spec/model/model-state.ts), written apart from
    // lib/core: a bug in decide() cannot reach both sides of the comparison.
    const arbQuota = fc.record({
      isEnabled: fc.boolean(),
      freeRemaining: fc.nat(5),
      freeTotal: fc.nat(5),
      creditsPerUse: fc.oneof(fc.nat(50), fc.double({ min: 0, max: 50, noNaN: true })),
      creditsBalance: fc.oneof(fc.nat(100), fc.double({ min: 0, max: 100, noNaN: true })),
    });
    const arbState = fc.record({
      quota: fc.option(arbQuota, { nil: null }),
      freePeriodEnd: fc.option(fc.integer({ min: 0, max: 2 * NOW }), { nil: null }),
    });
    fc.assert(
      fc.property(arbState, fc.integer({ min: 0, max: 2 * NOW }), (patch, now) => {
        const given = state(patch);
        const reason = expectedReason({ quota: given.quota, freePeriodEnd: given.freePeriodEnd }, now);
        const canProceed = reason !== 'insufficient';
        const quota = given.quota;
        const expected = {
          canProceed,
          reason,
          cost:
            quota === null ? (canProceed ? 0 : null) : reason === 'credits' || !canProceed ? quota.creditsPerUse : 0,
          freeAfter: quota === null ? null : quota.freeRemaining - (reason === 'free_count' ? 1 : 0),
          // Amounts subtract by the one rule (lib/shared/subtract-amount.ts, tested on its own): no float noise.
          balanceAfter:
            quota === null
              ? null
              : subtractAmount(quota.creditsBalance, reason === 'credits' ? quota.creditsPerUse : 0),
        };
        const result = preview(given, now);
        expect(result).toEqual(expected);
        // check() is decide(): it gives the same verdict as the preview.
        expect(decide(given, now)).toEqual({ canProceed, reason });
        if (result.canProceed && result.balanceAfter !== null) expect(result.balanceAfter).toBeGreaterThanOrEqual(0);
        if (result.canProceed && result.freeAfter !== null) expect(result.freeAfter).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
});
