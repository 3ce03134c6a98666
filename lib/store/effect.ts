import type { Observable, SchedulerLike } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';

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
   * A refetch because something changed elsewhere (another tab's charge):
   * joins a usage fetch sent after the call, or queues one that every such
   * call meanwhile shares. Never throws or rejects; settles once the fetch
   * that answers it is applied (its `usage/loaded` or `usage/failed` came first).
   */
  readonly refetchUsage: () => Promise<void>;
  /** A load, as `getUsage()` makes it: joins the newest usage fetch, or sends one. Never throws or rejects. */
  readonly loadUsage: () => Promise<void>;
}
