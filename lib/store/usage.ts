import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import type { BillingError } from '../shared/errors';
import type { BillingApi } from '../transport/billing-api';

/** What a request of the store uses of its client: the transport, and the store's facts, state and clock. */
export interface LoadContext {
  readonly api: BillingApi;
  readonly dispatch: (action: BillingAction) => void;
  readonly state: () => BillingState;
  readonly now: () => number;
  /** The next request number, taken as an attempt goes out (a retry is newer than what was sent before it). */
  readonly nextRequestNumber: () => number;
}

/**
 * `getUsage()`'s request: both GETs in parallel, numbered as each attempt goes
 * out; one `usage/loaded` once both are in, or the first error (the other is
 * aborted). The fact is dispatched before the callers hear of it, so each
 * reads the cache with the answer applied.
 */
export async function fetchUsage({ api, dispatch, now, nextRequestNumber }: LoadContext, controller: AbortController) {
  const { signal } = controller;
  let seq = 0;
  let balanceSeq = 0;
  dispatch({ type: 'usage/started' });
  try {
    const [count, creditsBalance] = await Promise.all([
      api.freeCount({ signal, onSend: () => (seq = nextRequestNumber()) }),
      api.balance({ signal, onSend: () => (balanceSeq = nextRequestNumber()) }),
    ]);
    dispatch({ type: 'usage/loaded', seq, balanceSeq, quota: { ...count, creditsBalance }, now: now() });
  } catch (error) {
    controller.abort();
    dispatch({ type: 'usage/failed', error: error as BillingError });
    throw error;
  }
}

/** The balance request (`refreshCredits()`, `getBalance()`, the refresh after a charge or a refusal). */
export async function fetchBalance({ api, dispatch, nextRequestNumber }: LoadContext, { signal }: AbortController) {
  let seq = 0;
  dispatch({ type: 'balance/started' });
  try {
    const balance = await api.balance({ signal, onSend: () => (seq = nextRequestNumber()) });
    dispatch({ type: 'balance/loaded', seq, balance });
    return balance;
  } catch (error) {
    dispatch({ type: 'balance/failed', error: error as BillingError });
    throw error;
  }
}
