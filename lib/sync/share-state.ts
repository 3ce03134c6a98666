import { EMPTY, defer, filter, finalize, from, ignoreElements, merge, mergeMap, tap } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { newestLedgerSeq } from '../core/balance-ledger';
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

// The fact is what the cache now holds: the reducer applied it as the newest answer.
function appliedAsNewest(action: EngineAction, state: BillingState): boolean {
  return 'seq' in action && (action.seq === state.freeSeq || action.seq === newestLedgerSeq(state.ledger));
}

function adopt(message: SyncMessage, clocks: Clocks, learnedAt: { value: number }): BillingAction[] {
  if (message.kind !== 'state') return [];
  // A quota learned before the one this tab holds (a busy tab answering a hello late) is older news.
  let quota = message.quota;
  if (quota !== null && message.asOf !== null) {
    if (message.asOf < learnedAt.value) quota = null;
    else learnedAt.value = message.asOf;
  }
  // Measured when handled, not when sent: a tab that handles the message late gets only what is left.
  const remaining =
    message.freePeriodEnd === null
      ? message.freePeriodMs
      : message.freePeriodEnd === 0
        ? 0
        : message.freePeriodEnd - clocks.wallNow();
  if (quota === null && !(remaining > 0)) return [];
  return [{ type: 'tab/shared', quota, now: clocks.now(), remainingMs: remaining }];
}

/**
 * Shares this tab's quota and free period after each local fact, answers a
 * new tab's hello with them, and turns other tabs' state into actions.
 */
export function shareState(channel: TabChannel, wallNow: () => number, onClose: () => void): EnginePlugin {
  return ({ action$, store, scheduler }) => {
    const clocks: Clocks = { now: () => scheduler.now(), wallNow };
    // Wall time at which the quota this tab holds was learned, here or in the tab it came from.
    const learnedAt = { value: 0 };
    // `always` for answers to a hello: an empty state still tells the new tab this one exists.
    const share = (always = false) => {
      const state = store.state;
      const remaining = remainingMs(state, clocks);
      if (always || state.quota !== null || remaining > 0) {
        const freePeriodEnd = remaining > 0 ? wallNow() + remaining : 0;
        const asOf = learnedAt.value;
        channel.post({ kind: 'state', quota: state.quota, freePeriodEnd, freePeriodMs: remaining, asOf });
      }
    };
    const publish$ = action$.pipe(
      filter((action) => LOCAL_FACTS.has(action.type)),
      tap((action) => {
        if (appliedAsNewest(action, store.state)) learnedAt.value = wallNow();
        share();
      }),
      ignoreElements(),
    );
    const receive$ = channel.messages$.pipe(
      tap((message) => {
        if (message.kind === 'hello') share(true);
      }),
      mergeMap((message) => from(adopt(message, clocks, learnedAt))),
    );
    const hello$ = defer(() => {
      channel.hello(scheduler.now());
      return EMPTY;
    });
    // Closing here ties the channel to the client: dispose cuts this effect.
    return merge(publish$, receive$, hello$).pipe(finalize(onClose));
  };
}
