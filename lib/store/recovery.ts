import { ReplaySubject, Subscription } from 'rxjs';
import type { RecoveredConsume } from '../shared/feature-types';
import { runTurn, sendConsume } from './consume';
import { newCall, type HeldLock, type Recovery } from './consume-call';

// What the start's turn goes on with once disposed (it asks for the lock no more).
const unlocked: HeldLock = { release: () => undefined, orphans: [] };
import { firstHook, type StoreHooks } from './hooks';

/**
 * The one `recovered$` for an unanswered POST, whichever road finds it: the
 * journal at start (a page reloaded) or the consume lock's answer (a tab that
 * died); both are replayed by the store's consume steps (`store/consume.ts`),
 * which report here. Every outcome goes to the features that listen, and to
 * each subscriber (replayed); the store completes it once no more can come.
 * While this page lives it holds its page lock, and a mark for each id it
 * replayed, taken before the replay, so that a page learning the same
 * outcome, later or at the same moment, does not report it again.
 */
export function recovery(hooks: readonly StoreHooks[]): Recovery {
  const listeners = hooks.flatMap((hook) => hook.onRecovered ?? []);
  const marks = firstHook(hooks, 'reportMarks');
  const reports = new ReplaySubject<RecoveredConsume>();
  // The ids being replayed, until their `consume/settled`.
  const replaying = new Set<string>();
  // This page's alive lock, for the client's life (a free one tells other pages it is gone), and its marks.
  const held = new Subscription(firstHook(hooks, 'holdPageLock')?.());
  // The journal's claim, made at start (not under the consume lock, which another tab may hold long): the
  // claimed entries then name this page, so if it dies before its turn, the next page on its storage replays them.
  let claim: Promise<readonly string[]> = Promise.resolve([]);
  return {
    recovered$: reports.asObservable(),
    async replay(context, orphans = [], start) {
      // At start, what the journal names as left by a page that is gone, claimed at start, replayed under the lock.
      const claimed = (start && !start.aborted && (await claim)) || [];
      let refresh = false;
      for (const externalId of [...orphans, ...claimed]) {
        const origin = orphans.includes(externalId) ? 'tab' : 'reload';
        // Marked first, so that of pages about to replay it at once one does; marked by a page still alive:
        // that page's to report, not this one's to replay (contract decision 13).
        const mark = marks?.take(externalId);
        held.add(mark?.release);
        if (mark && !(await mark.granted)) {
          context.journal?.remove(externalId);
          continue;
        }
        replaying.add(externalId);
        const call = newCall(context, { externalId, origin });
        // A replay has no caller to await it: its outcome is reported, never an unhandled rejection.
        call.outcome.catch(() => undefined);
        // Ended with the backend's answer, or with the failure of its POST.
        await sendConsume(context, call, externalId).then((charged) => {
          refresh ||= charged;
          call.end();
        }, call.end);
      }
      return refresh;
    },
    // A replay's outcome, whatever it is (an error too), is reported: one rule on every road (the recipes).
    observe(action) {
      if (action.type !== 'consume/settled' || !replaying.delete(action.externalId as string)) return;
      const { externalId, result, error } = action as { externalId: string } & typeof action;
      const recovered = {
        externalId,
        outcome: result ? { ok: true, result } : { ok: false, error },
      } as RecoveredConsume;
      listeners.forEach((listener) => listener(recovered));
      reports.next(recovered);
    },
    start(context) {
      // Once the journal's replays are reported, recovered$ is over, unless a consume lock may still turn up
      // a dead tab's POST: then it completes on dispose().
      // The start's turn, queued as a consume is, for what the journal names as left by a page that is gone.
      // It has no caller to fail: past the lock's bound it asks again, until it holds it (a page that re-sends
      // the same POST meanwhile marks it first) or the client is disposed.
      const lock = context.consumeLock;
      const retry = (signal: AbortSignal): Promise<HeldLock> =>
        lock ? lock(signal).catch(() => (signal.aborted ? unlocked : retry(signal))) : Promise.resolve(unlocked);
      const turn = { ...context, consumeLock: lock && retry };
      const { journal, disposal } = context;
      // A journal or a lock that fails leaves nothing to replay.
      if (journal) claim = (async () => journal.pending(disposal.signal))().catch(() => []);
      const replayed = journal && (context.tail = context.tail.then(() => runTurn(turn, undefined, disposal.signal)));
      if (!lock) void Promise.resolve(replayed).then(() => reports.complete());
      // dispose() aborts `disposal` before this runs.
      return () => {
        reports.complete();
        held.unsubscribe();
      };
    },
  };
}
