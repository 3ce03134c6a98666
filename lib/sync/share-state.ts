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

function freePeriodMs(state: BillingState, now: number): number {
  return state.freePeriodEnd === null ? 0 : Math.max(0, state.freePeriodEnd - now);
}

function adopt(message: SyncMessage, now: number, nextSeq: () => number): BillingAction[] {
  if (message.kind !== 'state' || (message.quota === null && message.freePeriodMs === 0)) return [];
  return [{ type: 'tab/shared', seq: nextSeq(), quota: message.quota, now, remainingMs: message.freePeriodMs }];
}

/**
 * Shares this tab's quota and free period after each local fact, answers a
 * new tab's hello with them, and turns other tabs' state into actions.
 */
export function shareState(channel: TabChannel, onClose: () => void): EnginePlugin {
  return ({ action$, store, scheduler, nextSeq }) => {
    // `always` for answers to a hello: an empty state still tells the new tab this one exists.
    const share = (always = false) => {
      const state = store.state;
      const remaining = freePeriodMs(state, scheduler.now());
      if (always || state.quota !== null || remaining > 0) {
        channel.post({ kind: 'state', quota: state.quota, freePeriodMs: remaining });
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
      mergeMap((message) => from(adopt(message, scheduler.now(), nextSeq))),
    );
    const hello$ = defer(() => {
      channel.post({ kind: 'hello' });
      return EMPTY;
    });
    // Closing here ties the channel to the client: dispose cuts this effect.
    return merge(publish$, receive$, hello$).pipe(finalize(onClose));
  };
}
