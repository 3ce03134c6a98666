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
  /** Starts a usage fetch, or joins one in flight; never throws. */
  readonly refetchUsage: () => void;
}
