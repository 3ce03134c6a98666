import fc from 'fast-check';
import { decide, freePeriodSeconds } from '../../lib/core/decide';
import { initialState, type BillingState, type Quota } from '../../lib/core/state';

const quota = (patch: Partial<Quota> = {}): Quota => ({
  isEnabled: true,
  freeRemaining: 0,
  freeTotal: 5,
  creditsPerUse: 2,
  creditsBalance: 0,
  ...patch,
});
const state = (patch: Partial<BillingState> = {}): BillingState => ({ ...initialState, ...patch });

describe('decide()', () => {
  it.each<[string, BillingState, string]>([
    [
      'a free period beats everything',
      state({ quota: quota({ freeRemaining: 3 }), freePeriodEnd: 1_001 }),
      'free_period',
    ],
    ['a free period applies with no cache', state({ freePeriodEnd: 2_000 }), 'free_period'],
    ['free quota beats credits', state({ quota: quota({ freeRemaining: 1, creditsBalance: 99 }) }), 'free_count'],
    ['credits when the balance covers the price', state({ quota: quota({ creditsBalance: 2 }) }), 'credits'],
    ['insufficient below the price', state({ quota: quota({ creditsBalance: 1.99 }) }), 'insufficient'],
    ['insufficient before any fetch', state(), 'insufficient'],
    ['an ended period no longer counts', state({ quota: quota(), freePeriodEnd: 1_000 }), 'insufficient'],
    [
      'isEnabled false does not change the order',
      state({ quota: quota({ isEnabled: false, freeRemaining: 1 }) }),
      'free_count',
    ],
  ])('%s', (_, s, reason) => {
    expect(decide(s, 1_000).reason).toBe(reason);
    expect(decide(s, 1_000).canProceed).toBe(reason !== 'insufficient');
  });

  it('matches the spec priority for any state and time (property)', () => {
    const arbQuota = fc.record({
      isEnabled: fc.boolean(),
      freeRemaining: fc.nat(5),
      freeTotal: fc.nat(5),
      creditsPerUse: fc.nat(10),
      creditsBalance: fc.nat(20),
    });
    fc.assert(
      fc.property(
        fc.option(arbQuota, { nil: null }),
        fc.option(fc.nat(60_000), { nil: null }),
        fc.nat(60_000),
        (q, end, now) => {
          const verdict = decide(state({ quota: q, freePeriodEnd: end }), now);
          const expected =
            end !== null && now < end
              ? 'free_period'
              : q === null
                ? 'insufficient'
                : q.freeRemaining > 0
                  ? 'free_count'
                  : q.creditsBalance >= q.creditsPerUse
                    ? 'credits'
                    : 'insufficient';
          expect(verdict.reason).toBe(expected);
        },
      ),
    );
  });

  it('allocates nothing: the same frozen verdict comes back', () => {
    const s = state({ quota: quota({ freeRemaining: 1 }) });
    expect(decide(s, 0)).toBe(decide(s, 5));
    expect(Object.isFrozen(decide(s, 0))).toBe(true);
  });
});

describe('freePeriodSeconds()', () => {
  it.each([
    [30_000, 30],
    [29_001, 30],
    [29_000, 29],
    [1, 1],
    [0, 0],
    [-5, 0],
  ])('%i ms left is %i s', (left, seconds) => {
    expect(freePeriodSeconds(state({ freePeriodEnd: 10_000 + left }), 10_000)).toBe(seconds);
  });

  it('never exceeds 30 even if the end lies further ahead', () => {
    expect(freePeriodSeconds(state({ freePeriodEnd: 3_600_000 }), 0)).toBe(30);
  });
});
