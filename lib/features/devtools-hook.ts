import { Observable } from 'rxjs';
import type { BillingFeature, FeatureSetup } from './feature';
import type { BillingStatus } from '../shared/billing-status';
import type { UsageInfo } from '../shared/types';
import type { BillingState } from '../core/state';
import { toUsageInfo } from '../core/usage-view';
import { freePeriodEndsAt } from '../core/snapshot';
import type { Effect } from '../store/effect';

/**
 * The client's public state as a DevTools panel is sent it, once
 * `reduxDevtools()` has whitelisted it: its status error shows as
 * `{ code, status?, backendCode? }`, never a message or a header value.
 *
 * @example
 * ```ts
 * const shown: DevtoolsState = { usage: null, status: billing.getStatus(), freePeriodEndsAt: null };
 * ```
 */
export interface DevtoolsState {
  usage: UsageInfo | null;
  status: BillingStatus;
  /** Wall-clock ms; `null` when no free period is active. */
  freePeriodEndsAt: number | null;
}

/**
 * One client's link to a DevTools panel, as `reduxDevtools()` opens it when
 * the client is created.
 *
 * @example
 * ```ts
 * const connection: DevtoolsConnection = { send: (action, state) => log(action.type, state), close: () => undefined };
 * ```
 */
export interface DevtoolsConnection {
  /** After every action the reducer applied, with the state it left. */
  send(action: { readonly type: string }, state: DevtoolsState): void;
  /** On `dispose()`; nothing is sent after. */
  close(): void;
}

/**
 * The `devtools` option, made by `reduxDevtools()` from
 * `unified-billing/devtools`: an opt-in feature like `tabSync()`, so its code
 * is in no bundle that does not import that entry.
 *
 * @example
 * ```ts
 * import { reduxDevtools } from 'unified-billing/devtools';
 *
 * const devtools: DevtoolsHook = reduxDevtools();
 * createClient({ baseUrl, appKey: 'poster', devtools });
 * ```
 */
export type DevtoolsHook = BillingFeature<'devtools'>;

// Here, on the feature side, so unified-billing/devtools sees the public state only and never
// imports core or store (the direction rule of the layers).
/**
 * The one effect of a DevTools bridge. It emits nothing: it calls `open` with the public state
 * as the client is created (after a bootstrap), sends every applied action after the store took
 * it, and closes on dispose, when effects are cut. `open` returns `undefined` to stay silent.
 * @internal
 */
export function devtoolsEffect(
  { scheduler, wallNow }: FeatureSetup,
  open: (initial: DevtoolsState) => DevtoolsConnection | undefined,
): Effect {
  return (action$, state$) =>
    new Observable<never>(() => {
      // The public state: the usage at `now`, the status, and the free period's end on the wall clock. That
      // end is converted when the store's end changes, not for every action: a browser's two clocks
      // (`performance.now()` in fractions, `Date.now()` in whole ms) read again each time round the same
      // end 1 ms apart.
      let end: number | null = null;
      let endsAt: number | null = null;
      const stateOf = (state: BillingState): DevtoolsState => {
        const now = scheduler.now();
        if (state.freePeriodEnd !== end) {
          end = state.freePeriodEnd;
          endsAt = freePeriodEndsAt(state, now, wallNow());
        }
        return {
          usage: toUsageInfo(state, now),
          status: state.status,
          freePeriodEndsAt: end !== null && end > now ? endsAt : null,
        };
      };
      const connection = open(stateOf(state$.value));
      if (connection === undefined) return undefined;
      const subscription = action$.subscribe((action) => connection.send(action, stateOf(state$.value)));
      // Closed once nothing more is sent: after the actions' subscription ends.
      subscription.add(() => connection.close());
      return subscription;
    });
}
