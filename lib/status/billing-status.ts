import type { BillingAction } from '../core/actions';
import { initialState, type BillingState } from '../core/state';
import type { BillingError } from '../errors';

/**
 * What a UI needs to render the billing state honestly: `billing.getStatus()`
 * and `billing.status$` (which replays the latest and emits on change).
 *
 * @example
 * ```ts
 * const { loaded, error } = billing.getStatus();
 * if (!loaded) return error ? 'Could not load your quota' : 'Loading…'; // not "Refused"
 * ```
 */
export interface BillingStatus {
  /** Usage is cached (`getCachedUsage() !== null`). */
  readonly loaded: boolean;
  /** A usage fetch is in flight. */
  readonly loading: boolean;
  /** Scheduler ms of the last applied usage answer. */
  readonly fetchedAt: number | null;
  /** Consumes sent to the backend and not yet answered. */
  readonly pending: number;
  /** The last failed getUsage/refresh/consume; `null` after the next success of that call. */
  readonly error: BillingError | null;
}

type Call = NonNullable<BillingState['failed']>;

/**
 * The status part of the reducer: `state` (its quota already folded) with the
 * status after `action`; the same object when nothing changed, so `status$`
 * emits only on change. The caller's own doing (`aborted`, `disposed`, a bad
 * argument refused before anything was sent) is no error of billing;
 * `insufficient_credits` is an answer, a success.
 */
export function foldStatus(state: BillingState, action: BillingAction): BillingState {
  let { fetches, failed } = state;
  let { fetchedAt, pending, error } = state.status;
  const settled = (call: Call, err: BillingError | null) => {
    const code = err?.code;
    if (err === null || code === 'insufficient_credits') {
      // getUsage also fetches the balance, so its success clears a failed refresh too.
      if (failed === call || (call === 'usage' && failed === 'refresh')) failed = error = null;
    } else if (code !== 'aborted' && code !== 'disposed') {
      failed = call;
      error = err;
    }
  };
  switch (action.type) {
    case 'usage/started':
      fetches++;
      break;
    case 'usage/loaded':
      if (!action.relayed) {
        fetches--;
        fetchedAt = action.now;
        settled('usage', null);
      } else if (!state.status.loaded) fetchedAt = action.now;
      break;
    case 'usage/failed':
      fetches--;
      settled('usage', action.error);
      break;
    case 'usage/bootstrapped':
      fetchedAt = action.fetchedAt;
      break;
    case 'balance/loaded':
      settled('refresh', null);
      break;
    case 'balance/failed':
      settled('refresh', action.error);
      break;
    case 'consume/sent':
      pending++;
      break;
    case 'consume/charged':
    case 'consume/insufficient':
      pending--;
      break;
    case 'consume/settled':
      if (action.open) pending--;
      if (action.open || action.error?.code !== 'invalid_argument') settled('consume', action.error);
  }
  fetches = Math.max(fetches, 0);
  pending = Math.max(pending, 0);
  const loaded = state.quota !== null;
  const loading = fetches > 0;
  const s = state.status;
  const same =
    s.loaded === loaded &&
    s.loading === loading &&
    s.fetchedAt === fetchedAt &&
    s.pending === pending &&
    s.error === error;
  if (same && fetches === state.fetches && failed === state.failed) return state;
  const status = same ? s : Object.freeze({ loaded, loading, fetchedAt, pending, error });
  return { ...state, status, fetches, failed };
}

/** Before anything happened: not loaded, nothing in flight, no error (the server render's status). */
export const initialStatus: { readonly view: BillingStatus } = { view: initialState.status };
