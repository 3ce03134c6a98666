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

/**
 * The calls whose failure {@link BillingStatus.error} shows.
 *
 * @example
 * ```ts
 * const settled: StatusSignal = { kind: 'refresh' satisfies StatusCall, error: null };
 * ```
 */
export type StatusCall = 'usage' | 'refresh' | 'consume';

/**
 * What the engine tells the status. Each `usage/started` is followed by one
 * settled `usage`; each `consume/sent` by one `consume/answered` (an answer,
 * or the consume gave up). A settled call (`usage`, `refresh`, `consume`)
 * carries `error: null` on success (with `at`, for usage applied). Feed every
 * rejection: the fold ignores the caller's own doing (`aborted`,
 * `disposed`) and reads `insufficient_credits` as an answer, a success. An
 * `invalid_argument` that reaches it is the `headers` option failing (a call's
 * own bad arguments are refused before anything is sent): an error. `usage/cached` is a usage answer this client did not
 * fetch (another tab's, a restored one).
 *
 * @example
 * ```ts
 * status = nextStatus(status, { kind: 'consume', error }); // a consume() rejected
 * ```
 */
export type StatusSignal =
  | { readonly kind: 'usage/started' | 'consume/sent' | 'consume/answered' }
  | { readonly kind: 'usage/cached'; readonly at: number }
  | { readonly kind: 'usage'; readonly error: null; readonly at: number }
  | { readonly kind: StatusCall; readonly error: BillingError }
  | { readonly kind: 'refresh' | 'consume'; readonly error: null };

/**
 * The fold's state: the public `view` and what it is derived from.
 *
 * @example
 * ```ts
 * const next = nextStatus(state, signal);
 * if (next.view !== state.view) status$.next(next.view);
 * ```
 */
export interface StatusState {
  readonly view: BillingStatus;
  /** Usage fetches in flight. */
  readonly fetches: number;
  /** The call whose failure `view.error` is, so only its success clears it. */
  readonly failed: StatusCall | null;
}

/**
 * Before anything happened: not loaded, nothing in flight, no error.
 *
 * @example
 * ```ts
 * const status$ = new BehaviorSubject(initialStatus.view);
 * ```
 */
export const initialStatus: StatusState = Object.freeze({
  view: Object.freeze({ loaded: false, loading: false, fetchedAt: null, pending: 0, error: null }),
  fetches: 0,
  failed: null,
});

// Positional, so a signal that changes nothing (a free consume's success)
// allocates nothing and returns the same state, hence the same view.
function next(
  state: StatusState,
  fetches: number,
  failed: StatusCall | null,
  error: BillingError | null,
  pending: number,
  loaded: boolean,
  fetchedAt: number | null,
): StatusState {
  const v = state.view;
  const loading = fetches > 0;
  const same =
    v.loaded === loaded &&
    v.loading === loading &&
    v.fetchedAt === fetchedAt &&
    v.pending === pending &&
    v.error === error;
  if (same && fetches === state.fetches && failed === state.failed) return state;
  return { view: same ? v : Object.freeze({ loaded, loading, fetchedAt, pending, error }), fetches, failed };
}

/**
 * The pure fold of the status: the state after `signal`, the same object
 * when nothing changed (so `status$` emits only on change).
 *
 * @example
 * ```ts
 * let state = nextStatus(initialStatus, { kind: 'usage/started' }); // view.loading: true
 * state = nextStatus(state, { kind: 'usage', error: null, at: scheduler.now() }); // view.loaded: true
 * ```
 */
export function nextStatus(state: StatusState, signal: StatusSignal): StatusState {
  const { fetches, failed } = state;
  const { loaded, fetchedAt, pending, error } = state.view;
  switch (signal.kind) {
    case 'usage/started':
      return next(state, fetches + 1, failed, error, pending, loaded, fetchedAt);
    case 'usage/cached':
      return next(state, fetches, failed, error, pending, true, signal.at);
    case 'consume/sent':
      return next(state, fetches, failed, error, pending + 1, loaded, fetchedAt);
    case 'consume/answered':
      return next(state, fetches, failed, error, Math.max(pending - 1, 0), loaded, fetchedAt);
  }
  // A call settled. Its success clears the error only if that call made it
  // (getUsage also fetches the balance, so it clears a failed refresh too).
  const { kind: call, error: err } = signal;
  const code = err?.code;
  const usage = call === 'usage';
  const applied = usage && !err;
  const ok = !err || code === 'insufficient_credits';
  // invalid_argument is not here: a call's bad arguments never reach the fold, the
  // headers option failing does, and that is billing not working (a refetch has no caller).
  const keep = ok || code === 'aborted' || code === 'disposed';
  const clears = ok && (failed === call || (usage && failed === 'refresh'));
  return next(
    state,
    usage ? Math.max(fetches - 1, 0) : fetches,
    clears ? null : keep ? failed : call,
    clears ? null : keep ? error : err,
    pending,
    loaded || applied,
    applied ? (signal as { at: number }).at : fetchedAt,
  );
}
