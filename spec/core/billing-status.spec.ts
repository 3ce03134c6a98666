import type { BillingAction } from '../../lib/core/actions';
import { reduce } from '../../lib/core/reducer';
import { initialState, type BillingState } from '../../lib/core/state';
import { BillingError, type BillingErrorCode } from '../../lib/shared/errors';
import type { BillingStatus } from '../../lib/shared/billing-status';

// The status is folded by the pure reducer from the same facts as the quota (issue 17 item 2).
const fail = (code: BillingErrorCode) => new BillingError(code, `${code} failure`);
const QUOTA = { isEnabled: true, freeRemaining: 1, freeTotal: 3, creditsPerUse: 2, creditsBalance: 10 };
let seq = 0;
const started: BillingAction = { type: 'usage/started' };
const loaded = (now: number): BillingAction => ({ type: 'usage/loaded', seq: ++seq, quota: QUOTA, now });
const usageFailed = (error: BillingError): BillingAction => ({ type: 'usage/failed', error });
const sent: BillingAction = { type: 'consume/sent', externalId: 'op' };
const charged = (): BillingAction => ({
  type: 'consume/charged',
  seq: ++seq,
  now: 0,
  freeRemaining: 0,
  isCredit: false,
});
const settled = (error: BillingError | null, open = false): BillingAction => ({
  type: 'consume/settled',
  externalId: 'op',
  result: error === null ? { freeRemaining: 0, isCredit: false, isBlacklisted: false } : null,
  error,
  charged: false,
  unanswered: open,
});
const refreshed: BillingAction = { type: 'balance/loaded', seq: 0, balance: 1 };
const refreshFailed = (error: BillingError): BillingAction => ({ type: 'balance/failed', error });

const fold = (actions: BillingAction[], from: BillingState = initialState): BillingState =>
  actions.reduce(reduce, from);
// The views a status$ would emit: one per change, none for an action that changes nothing.
function emitted(actions: BillingAction[]): BillingStatus[] {
  const views = [initialState.status];
  let state = initialState;
  for (const action of actions) {
    state = reduce(state, action);
    if (state.status !== views[views.length - 1]) views.push(state.status);
  }
  return views;
}
const status = (patch: Partial<BillingStatus>): BillingStatus => ({ ...initialState.status, ...patch });

describe('the status, folded by the reducer', () => {
  it('goes through a whole cycle: loading, ready, pending during a consume, error then cleared', () => {
    const network = fail('network');
    expect(
      emitted([started, loaded(100), sent, charged(), settled(null), sent, settled(network, true), settled(null)]),
    ).toEqual([
      status({}),
      status({ loading: true }),
      status({ loaded: true, fetchedAt: 100 }),
      status({ loaded: true, fetchedAt: 100, pending: 1 }),
      status({ loaded: true, fetchedAt: 100 }),
      status({ loaded: true, fetchedAt: 100, pending: 1 }),
      status({ loaded: true, fetchedAt: 100, error: network }),
      status({ loaded: true, fetchedAt: 100 }),
    ]);
  });

  it('clears an error only on the success of the call that failed, and shows the last failure', () => {
    const usage = fail('timeout');
    const consume = fail('backend');
    let state = fold([started, usageFailed(usage)]);
    expect(state.status).toEqual(status({ error: usage }));
    state = fold([settled(null), refreshed], state);
    expect(state.status.error).toBe(usage);
    state = reduce(state, settled(consume, true));
    expect(state.status.error).toBe(consume);
    state = fold([started, loaded(5)], state);
    expect(state.status.error).toBe(consume); // the usage success does not clear the consume's failure
    expect(reduce(state, settled(null)).status.error).toBeNull();
  });

  it('a usage answer, which carries the balance, clears a failed refresh; a refresh does not clear a failed usage', () => {
    const refresh = fail('http');
    const state = fold([refreshFailed(refresh)]);
    expect(state.status.error).toBe(refresh);
    expect(fold([started, loaded(1)], state).status.error).toBeNull();
    const usage = fold([started, usageFailed(fail('network'))]);
    expect(reduce(usage, refreshed).status.error).not.toBeNull();
  });

  it('stays loading while any usage fetch is in flight', () => {
    let state = fold([started, started, loaded(7)]);
    expect(state.status).toEqual(status({ loading: true, loaded: true, fetchedAt: 7 }));
    state = reduce(state, usageFailed(fail('network')));
    expect(state.status.loading).toBe(false);
    expect(state.status.loaded).toBe(true); // the cache stays
  });

  it('counts each consume sent until it is answered, never below 0', () => {
    const state = fold([sent, sent, charged()]);
    expect(state.status.pending).toBe(1);
    expect(fold([charged(), settled(fail('network'), true)], state).status.pending).toBe(0);
  });

  it.each<BillingErrorCode>(['aborted', 'disposed'])(
    'a consume the caller ended (%s) is no error and keeps the last one',
    (code) => {
      const state = fold([refreshFailed(fail('network'))]);
      expect(reduce(state, settled(fail(code)))).toBe(state);
    },
  );

  it("a consume's own bad argument, refused before anything was sent, is no error of billing", () => {
    expect(reduce(initialState, settled(fail('invalid_argument')))).toBe(initialState);
  });

  it('invalid_argument once sent (the headers option failed) is an error: a refetch has no caller to tell', () => {
    const headers = fail('invalid_argument');
    expect(fold([started, usageFailed(headers)]).status).toMatchObject({ loading: false, error: headers });
    expect(fold([sent, settled(headers, true)]).status).toMatchObject({ pending: 0, error: headers });
  });

  it('insufficient_credits is an answer, so it clears a failed consume and shows no error', () => {
    const state = fold([settled(fail('timeout'), true)]);
    expect(reduce(state, settled(fail('insufficient_credits'))).status.error).toBeNull();
    expect(reduce(initialState, settled(fail('insufficient_credits')))).toBe(initialState);
  });

  it('returns the same state and view when nothing changes, and frozen views otherwise', () => {
    for (const action of [settled(null), refreshed])
      expect(reduce(initialState, action).status).toBe(initialState.status);
    const loading = reduce(initialState, started);
    const twice = reduce(loading, started);
    expect(twice).not.toBe(loading); // two fetches now
    expect(twice.status).toBe(loading.status); // but nothing a user sees changed
    expect(Object.isFrozen(loading.status)).toBe(true);
    expect(Object.isFrozen(initialState.status)).toBe(true);
  });
});
