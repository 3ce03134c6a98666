import type { Observable, SchedulerLike } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import type { Flight } from './flight';

/** The store's state as an effect sees it: every state as it comes, and the current one to read. */
export interface StateSource extends Observable<BillingState> {
  readonly value: BillingState;
}

/**
 * An effect, as redux-observable and ngrx write them: facts in, facts out.
 * What it emits is dispatched to the store and then to `action$`; a failure
 * becomes a fact, never an error of the returned stream. It is unsubscribed
 * on `dispose()`, which is where it frees its handles.
 */
export type Effect<Deps = EffectDeps> = (
  action$: Observable<BillingAction>,
  state$: StateSource,
  deps: Deps,
) => Observable<BillingAction>;

/** What every effect may use. */
export interface EffectDeps {
  /** The client's clock and timers. */
  readonly scheduler: SchedulerLike;
  /**
   * `getUsage()`'s request, shared: `join()` loads as `getUsage()` does (the newest fetch, or a new one);
   * `join({ fresh: 'after' })` refetches because something changed elsewhere (another tab's charge): a
   * fetch sent after the call, or one queued that every such call meanwhile shares. Either settles once
   * the answering fetch is applied (its `usage/loaded` or `usage/failed` came first), and rejects with
   * its error: a feature that must not fail catches it.
   */
  readonly usage: Flight<void>;
}
