import fc from 'fast-check';
import type { BillingAction } from '../../lib/core/actions';
import { reduce } from '../../lib/core/reducer';
import { initialState, type BillingState, type Quota } from '../../lib/core/state';

const quota: Quota = { isEnabled: true, freeRemaining: 3, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 };
const run = (actions: readonly BillingAction[], from: BillingState = initialState): BillingState =>
  actions.reduce(reduce, from);

describe('reduce(): answers in any order, the first usage answer included', () => {
  it('a charge answered first is not rolled back by the older usage answer', () => {
    const state = run([
      { type: 'consume/charged', seq: 2, now: 0, freeRemaining: 2, isCredit: false },
      { type: 'usage/loaded', now: 0, seq: 1, quota },
    ]);
    expect(state.quota).toEqual({ ...quota, freeRemaining: 2 });
  });

  it('a credit charge answered first lowers the older balance by the price', () => {
    const state = run([
      { type: 'consume/charged', seq: 2, now: 0, freeRemaining: 0, isCredit: true },
      { type: 'usage/loaded', now: 0, seq: 1, quota: { ...quota, freeRemaining: 0 } },
    ]);
    expect(state.quota?.creditsBalance).toBe(8);
  });

  it('the refresh after that charge wins over the older usage answer, and the charge is not counted twice', () => {
    const state = run([
      { type: 'consume/charged', seq: 2, now: 0, freeRemaining: 0, isCredit: true },
      { type: 'balance/loaded', seq: 3, balance: 7 },
      { type: 'usage/loaded', now: 0, seq: 1, quota: { ...quota, freeRemaining: 0 } },
    ]);
    expect(state.quota?.creditsBalance).toBe(7);
  });

  it('a balance answered before a later credit charge is lowered by that charge only', () => {
    const state = run([
      { type: 'balance/loaded', seq: 2, balance: 20 },
      { type: 'consume/charged', seq: 3, now: 0, freeRemaining: 0, isCredit: true },
      { type: 'usage/loaded', now: 0, seq: 1, quota: { ...quota, freeRemaining: 0 } },
    ]);
    expect(state.quota?.creditsBalance).toBe(18);
  });

  it('a refusal answered first keeps the free count at 0', () => {
    const state = run([
      { type: 'consume/insufficient', seq: 2 },
      { type: 'usage/loaded', now: 0, seq: 1, quota },
    ]);
    expect(state.quota?.freeRemaining).toBe(0);
  });

  it('a usage answer newer than every early fact is taken as it is', () => {
    const state = run([
      { type: 'consume/charged', seq: 1, now: 0, freeRemaining: 2, isCredit: true },
      { type: 'balance/loaded', seq: 2, balance: 3 },
      { type: 'usage/loaded', now: 0, seq: 4, quota },
    ]);
    expect(state.quota).toEqual(quota);
  });

  // The order answers are applied in must not matter: with a first usage answer or without, the newest
  // answer of each field group decides (credit charges newer than the balance used lower it by the price).
  it('property: the cache equals what the newest answers say, in any arrival order', () => {
    const answer = fc.oneof(
      fc.record({ kind: fc.constant('charge' as const), free: fc.nat(5), credit: fc.boolean() }),
      fc.record({ kind: fc.constant('balance' as const), value: fc.nat(50) }),
      fc.record({ kind: fc.constant('usage' as const), free: fc.nat(5), value: fc.nat(50) }),
    );
    fc.assert(
      fc.property(
        fc
          .array(answer, { minLength: 1, maxLength: 6 })
          .chain((answers) =>
            fc.tuple(fc.constant(answers), fc.shuffledSubarray([...answers.keys()], { minLength: answers.length })),
          ),
        ([answers, order]) => {
          // Answer i was sent as request i + 1.
          const actions: BillingAction[] = order.map((i) => {
            const a = answers[i]!;
            const seq = i + 1;
            if (a.kind === 'charge') {
              return { type: 'consume/charged', seq, now: 0, freeRemaining: a.free, isCredit: a.credit };
            }
            if (a.kind === 'balance') return { type: 'balance/loaded', seq, balance: a.value };
            return {
              type: 'usage/loaded',
              now: 0,
              seq,
              quota: { ...quota, freeRemaining: a.free, creditsBalance: a.value },
            };
          });
          const state = run(actions);
          const firstUsage = answers.findIndex((a) => a.kind === 'usage');
          if (firstUsage === -1) {
            expect(state.quota).toBeNull();
            return;
          }
          const newestFree = [...answers.keys()].reverse().find((i) => answers[i]!.kind !== 'balance')!;
          const free = answers[newestFree]! as { free: number };
          const newestBalance = [...answers.keys()].reverse().find((i) => answers[i]!.kind !== 'charge');
          const base = newestBalance === undefined ? undefined : (answers[newestBalance] as { value: number }).value;
          const debits = answers.filter(
            (a, i) => a.kind === 'charge' && a.credit && (newestBalance === undefined || i > newestBalance),
          ).length;
          expect(state.quota?.freeRemaining).toBe(free.free);
          // Only meaningful when some balance answer is known; every run has a usage answer here.
          expect(state.quota?.creditsBalance).toBe(Math.max(0, (base ?? 0) - debits * quota.creditsPerUse));
        },
      ),
      { numRuns: 300 },
    );
  });
});
