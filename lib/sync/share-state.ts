import { EMPTY, defer, filter, finalize, from, ignoreElements, merge, mergeMap, tap } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { newestLedgerSeq } from '../core/balance-ledger';
import type { BillingState } from '../core/state';
import type { Effect } from '../engine/effect';
import type { SyncMessage } from './messages';

type StateMessage = Extract<SyncMessage, { kind: 'state' }>;
import type { TabChannel } from './tab-channel';

// Facts this tab learned itself; what came from other tabs is never echoed back.
const LOCAL_FACTS: ReadonlySet<BillingAction['type']> = new Set([
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

/** When the request behind a field group went out (wall time; `null` while unknown), and which tab's it was. */
interface Asked {
  at: number | null;
  /** The tab it came from; `null` for this tab's own answer. */
  from: string | null;
}

/** What this tab knows of the age of each field group it holds: they age apart. */
interface Ages {
  readonly free: Asked;
  readonly balance: Asked;
}

// A request sent before the one behind what this tab holds is older news (a busy tab answering a hello
// late, a message or an answer held on the way). A tie keeps the tab's own answer, but not an earlier
// message of the same sender, whose messages arrive in the order it learned them.
function newer(at: number | null, held: Asked, from: string): boolean {
  if (at === null || held.at === null) return true;
  return at > held.at || (at === held.at && held.from === from);
}

// When the request behind a local fact went out, on the wall clock the tabs share.
function askedAt(sentAt: number | undefined, clocks: Clocks): number {
  return sentAt === undefined ? clocks.wallNow() : clocks.wallNow() - (clocks.now() - sentAt);
}

// Dates each field group a local fact set, if the reducer applied it as the newest answer.
function dateLocalFact(action: BillingAction, state: BillingState, ages: Ages, clocks: Clocks): void {
  if (!('seq' in action)) return;
  const sentAt = 'sentAt' in action ? action.sentAt : undefined;
  if (action.seq === state.freeSeq && action.type !== 'balance/loaded') {
    Object.assign(ages.free, { at: askedAt(sentAt, clocks), from: null });
  }
  const usage = action.type === 'usage/loaded';
  const balanceSeq = usage ? (action.balanceSeq ?? action.seq) : action.seq;
  const touchesBalance =
    action.type !== 'consume/insufficient' && (action.type !== 'consume/charged' || action.isCredit);
  if (touchesBalance && balanceSeq === newestLedgerSeq(state.ledger)) {
    Object.assign(ages.balance, { at: askedAt(usage ? (action.balanceSentAt ?? sentAt) : sentAt, clocks), from: null });
  }
}

// Which field groups of another tab's quota are newer than this tab's; each group's age moves with it.
function freshGroups(message: StateMessage, ages: Ages): { free: boolean; balance: boolean } | null {
  if (message.quota === null) return null;
  const free = newer(message.asOf, ages.free, message.from);
  const balance = newer(message.balanceAsOf, ages.balance, message.from);
  if (free) Object.assign(ages.free, { at: message.asOf, from: message.from });
  if (balance) Object.assign(ages.balance, { at: message.balanceAsOf, from: message.from });
  return free || balance ? { free, balance } : null;
}

function adopt(message: SyncMessage, clocks: Clocks, ages: Ages, state: BillingState): BillingAction[] {
  if (message.kind !== 'state') return [];
  const fresh = freshGroups(message, ages);
  const quota = fresh === null ? null : message.quota;
  // Measured when handled, not when sent: a tab that handles the message late gets only what is left.
  const remaining =
    message.freePeriodEnd === null
      ? message.freePeriodMs
      : message.freePeriodEnd === 0
        ? 0
        : message.freePeriodEnd - clocks.wallNow();
  if (quota === null && !(remaining > 0)) return [];
  const now = clocks.now();
  const period = remaining > 0 ? { remainingMs: remaining } : {};
  if (quota !== null && fresh !== null) {
    // Per field group: just above the newest answer applied, so an older local answer cannot roll it
    // back, but below any local request already sent for that group (the next integer), whose answer
    // wins. A group the other tab has older news of ranks 0.
    const seq = fresh.free ? Math.floor(state.freeSeq) + 0.5 : 0;
    const balanceSeq = fresh.balance ? Math.floor(newestLedgerSeq(state.ledger)) + 0.5 : 0;
    // One action, so listeners see one change.
    return [{ type: 'usage/loaded', seq, balanceSeq, quota, now, relayed: true, ...period }];
  }
  return remaining > 0 ? [{ type: 'freePeriod/adopted', now, remainingMs: remaining }] : [];
}

/**
 * Shares this tab's quota and free period after each local fact, answers a
 * new tab's hello with them, and turns other tabs' state into actions.
 */
export function shareState(channel: TabChannel, wallNow: () => number, onClose: () => void): Effect {
  return (action$, state$, { scheduler }) => {
    const clocks: Clocks = { now: () => scheduler.now(), wallNow };
    const ages: Ages = { free: { at: null, from: null }, balance: { at: null, from: null } };
    // `always` for answers to a hello: an empty state still tells the new tab this one exists.
    const share = (always = false) => {
      const state = state$.value;
      const remaining = remainingMs(state, clocks);
      if (always || state.quota !== null || remaining > 0) {
        const freePeriodEnd = remaining > 0 ? wallNow() + remaining : 0;
        const asOf = ages.free.at ?? 0;
        const balanceAsOf = ages.balance.at ?? 0;
        channel.post({ kind: 'state', quota: state.quota, freePeriodEnd, freePeriodMs: remaining, asOf, balanceAsOf });
      }
    };
    const publish$ = action$.pipe(
      filter((action) => LOCAL_FACTS.has(action.type) && !(action.type === 'usage/loaded' && action.relayed)),
      tap((action) => {
        dateLocalFact(action, state$.value, ages, clocks);
        share();
      }),
      ignoreElements(),
    );
    const receive$ = channel.messages$.pipe(
      tap((message) => {
        if (message.kind === 'hello') share(true);
      }),
      mergeMap((message) => from(adopt(message, clocks, ages, state$.value))),
    );
    const hello$ = defer(() => {
      channel.hello(scheduler.now());
      return EMPTY;
    });
    // Closing here ties the channel to the client: dispose cuts this effect.
    return merge(publish$, receive$, hello$).pipe(finalize(onClose));
  };
}
