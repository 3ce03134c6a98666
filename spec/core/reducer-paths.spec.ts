import type { BillingAction } from '../../lib/core/actions';
import { reduce } from '../../lib/core/reducer';
import { FREE_PERIOD_MS, initialState, type BillingState, type Quota } from '../../lib/core/state';
import { BillingError, type BillingErrorCode } from '../../lib/shared/errors';

// Issue 27: paths of the reducer that the mutation run found unchecked by spec/core (a free period
// learned elsewhere, a bootstrap, and status changes the other status specs never reach).
// What is asserted is what `getStatus()`, `getCachedUsage()` and `check()` read from the state.

const QUOTA: Quota = { isEnabled: true, freeRemaining: 2, freeTotal: 3, creditsPerUse: 2, creditsBalance: 10 };
const fail = (code: BillingErrorCode) => new BillingError(code, `${code} failure`);
const fold = (actions: BillingAction[], from: BillingState = initialState): BillingState =>
  actions.reduce(reduce, from);

const started: BillingAction = { type: 'usage/started' };
const loaded = (seq: number, now: number): BillingAction => ({ type: 'usage/loaded', seq, quota: QUOTA, now });
const usageFailed = (error: BillingError): BillingAction => ({ type: 'usage/failed', error });
const refreshed: BillingAction = { type: 'balance/loaded', seq: 9, balance: 10 };
const refreshFailed = (error: BillingError): BillingAction => ({ type: 'balance/failed', error });
const sent: BillingAction = { type: 'consume/sent', externalId: 'op' };
const settled = (error: BillingError | null, open: boolean): BillingAction => ({
  type: 'consume/settled',
  externalId: 'op',
  result: error === null ? { freeRemaining: 0, isCredit: false, isBlacklisted: open } : null,
  error,
  charged: false,
  unanswered: open,
});
const adopt = (now: number, remainingMs: number): BillingAction => ({ type: 'freePeriod/adopted', now, remainingMs });

describe('a free period learned elsewhere (freePeriod/adopted)', () => {
  const NOW = 1_000;

  it('ends the time left after now', () => {
    expect(reduce(initialState, adopt(NOW, 5_000)).freePeriodEnd).toBe(NOW + 5_000);
  });

  it('never lasts more than one period, however much a message claims', () => {
    expect(reduce(initialState, adopt(NOW, 10 * FREE_PERIOD_MS)).freePeriodEnd).toBe(NOW + FREE_PERIOD_MS);
  });

  it.each([0, -5_000])('with %i ms left is no period: the state stays as it was', (remainingMs) => {
    expect(reduce(initialState, adopt(NOW, remainingMs))).toBe(initialState);
  });

  it('never cuts a known period short: an earlier or equal end changes nothing, a later one extends it', () => {
    const known = reduce(initialState, adopt(NOW, 20_000));
    expect(reduce(known, adopt(NOW, 10_000))).toBe(known);
    expect(reduce(known, adopt(NOW, 20_000))).toBe(known);
    expect(reduce(known, adopt(NOW, 25_000)).freePeriodEnd).toBe(NOW + 25_000);
  });
});

describe('a bootstrap (usage/bootstrapped)', () => {
  const boot: BillingAction = {
    type: 'usage/bootstrapped',
    quota: QUOTA,
    now: 500,
    fetchedAt: 200,
    remainingMs: 3_000,
  };

  it('caches its usage as loaded at its own fetch time, with what is left of its free period', () => {
    const state = reduce(initialState, boot);
    expect(state.quota).toEqual(QUOTA);
    expect(state.freePeriodEnd).toBe(3_500);
    expect(state.status).toEqual({ loaded: true, loading: false, fetchedAt: 200, pending: 0, error: null });
  });

  it('is older than every answer of the client: the first usage answer replaces it', () => {
    const answer: BillingAction = { type: 'usage/loaded', seq: 1, now: 900, quota: { ...QUOTA, freeRemaining: 0 } };
    const state = fold([boot, answer]);
    expect(state.quota?.freeRemaining).toBe(0);
    expect(state.status.fetchedAt).toBe(900);
  });
});

describe('the status at the edges', () => {
  it("a usage success clears the usage's own failure", () => {
    const error = fail('network');
    expect(fold([started, usageFailed(error)]).status.error).toBe(error);
    expect(fold([started, usageFailed(error), started, loaded(1, 10)]).status.error).toBeNull();
  });

  it("a refresh success clears the refresh's own failure", () => {
    const error = fail('http');
    expect(fold([refreshFailed(error), refreshed]).status.error).toBeNull();
  });

  it('one error shared by a failed usage and a failed refresh is cleared by the refresh, the last to fail', () => {
    // getUsage() and refreshCredits() share one balance request: both fail with its error.
    const error = fail('timeout');
    const both = fold([started, usageFailed(error), refreshFailed(error)]);
    expect(both.status.error).toBe(error);
    expect(reduce(both, refreshed).status.error).toBeNull();
  });

  it("a consume's answer does not clear a failed refresh", () => {
    const error = fail('http');
    expect(fold([refreshFailed(error), sent, settled(null, true)]).status.error).toBe(error);
  });

  it('a blacklisted answer (sent, settled without a charge) ends the pending count', () => {
    expect(fold([sent]).status.pending).toBe(1);
    expect(fold([sent, settled(null, true)]).status.pending).toBe(0);
  });

  it('a refusal (consume/insufficient) ends the pending count', () => {
    expect(fold([sent, { type: 'consume/insufficient', seq: 3 }]).status.pending).toBe(0);
  });

  it('a consume that ended before it was sent leaves the pending count of another alone', () => {
    expect(fold([sent, settled(fail('aborted'), false)]).status.pending).toBe(1);
    expect(fold([sent, settled(fail('timeout'), false)]).status.pending).toBe(1);
  });

  it('a consume that timed out before it was sent (the headers never came) shows its error', () => {
    const error = fail('timeout');
    expect(reduce(initialState, settled(error, false)).status.error).toBe(error);
  });

  it('a usage answer while another fetch is in flight moves fetchedAt, still loading', () => {
    const state = fold([started, loaded(1, 100), started, started, loaded(2, 200)]);
    expect(state.status).toEqual({ loaded: true, loading: true, fetchedAt: 200, pending: 0, error: null });
  });
});
