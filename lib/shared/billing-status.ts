import type { BillingError } from './errors';

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

// A public value type with its one constant, below core: the reducer's initial state starts from it
// and the React bindings render it on the server, without either importing the other's layer.
/** Before anything happened: not loaded, nothing in flight, no error (the server render's status). */
export const initialStatus: BillingStatus = Object.freeze({
  loaded: false,
  loading: false,
  fetchedAt: null,
  pending: 0,
  error: null,
});
