import { EMPTY, defer, filter, finalize, from, ignoreElements, merge, mergeMap, tap } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import type { EngineAction } from '../engine/engine-actions';
import type { EnginePlugin } from '../engine/extensions';
import type { SyncMessage } from './messages';
import type { TabChannel } from './tab-channel';

// Facts this tab learned itself; what came from other tabs is never echoed back.
const LOCAL_FACTS: ReadonlySet<EngineAction['type']> = new Set([
  'usage/loaded',
  'balance/loaded',
  'consume/charged',
  'consume/insufficient',
]);

/** The two clocks of a tab: its scheduler's (timers, the state) and the wall clock all tabs share. */
interface Clocks {
  readonly now: () => number;
  readonly wallNow: () => number;
}

function remainingMs(state: BillingState, clocks: Clocks): number {
  return state.freePeriodEnd === null ? 0 : Math.max(0, state.freePeriodEnd - clocks.now());
}

function adopt(message: SyncMessage, clocks: Clocks): BillingAction[] {
  if (message.kind !== 'state') return [];
  // Measured when handled, not when sent: a tab that handles the message late gets only what is left.
  const remaining =
    message.freePeriodEnd === null
      ? message.freePeriodMs
      : message.freePeriodEnd === 0
        ? 0
        : message.freePeriodEnd - clocks.wallNow();
  if (message.quota === null && !(remaining > 0)) return [];
  return [{ type: 'tab/shared', quota: message.quota, now: clocks.now(), remainingMs: remaining }];
}

/**
 * Shares this tab's quota and free period after each local fact, answers a
 * new tab's hello with them, and turns other tabs' state into actions.
 */
export function shareState(channel: TabChannel, wallNow: () => number, onClose: () => void): EnginePlugin {
  return ({ action$, store, scheduler }) => {
    const clocks: Clocks = { now: () => scheduler.now(), wallNow };
    // `always` for answers to a hello: an empty state still tells the new tab this one exists.
    const share = (always = false) => {
      const state = store.state;
      const remaining = remainingMs(state, clocks);
      if (always || state.quota !== null || remaining > 0) {
        const freePeriodEnd = remaining > 0 ? wallNow() + remaining : 0;
        channel.post({ kind: 'state', quota: state.quota, freePeriodEnd, freePeriodMs: remaining });
      }
    };
    const publish$ = action$.pipe(
      filter((action) => LOCAL_FACTS.has(action.type)),
      tap(() => share()),
      ignoreElements(),
    );
    const receive$ = channel.messages$.pipe(
      tap((message) => {
        if (message.kind === 'hello') share(true);
      }),
      mergeMap((message) => from(adopt(message, clocks))),
    );
    const hello$ = defer(() => {
      channel.hello(scheduler.now());
      return EMPTY;
    });
    // Closing here ties the channel to the client: dispose cuts this effect.
    return merge(publish$, receive$, hello$).pipe(finalize(onClose));
  };
}
