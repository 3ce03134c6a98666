import { ReplaySubject, Subscription } from 'rxjs';
import type { RecoveredConsume } from '../shared/feature-types';
import type { ConsumeOutcome } from '../shared/types';
import { replayUnderLock, startConsume, type ConsumeContext } from './consume';
import { firstHook, type Recovery, type StoreHooks } from './hooks';

/**
 * One recovery for an unanswered POST, whichever road finds it: the journal
 * at start (a page reloaded) or a consume lock's holder (a tab that died).
 * Both go through the consume's own steps and report on `recovered$`, which
 * replays every outcome to each subscriber. It completes once nothing more can
 * come: after the start's replays when no consume lock can find a dead tab's
 * POST later, else on `dispose()`.
 */
export function recovery(hooks: readonly StoreHooks[]): Recovery {
  const listeners = hooks.flatMap((hook) => hook.onRecovered ?? []);
  const journal = firstHook(hooks, 'journal');
  // Every outcome to each subscriber, then the end.
  const reports = new ReplaySubject<RecoveredConsume>();
  let context: ConsumeContext | undefined;
  const reporter = (externalId: string) => (outcome: ConsumeOutcome) => {
    const recovered = { externalId, outcome };
    listeners.forEach((listener) => listener(recovered));
    reports.next(recovered);
  };
  return {
    recovered$: reports.asObservable(),
    replay: (externalId, signal) =>
      context ? replayUnderLock(context, externalId, signal, reporter(externalId)) : Promise.resolve(false),
    start(consumeContext) {
      context = consumeContext;
      const release = firstHook(hooks, 'holdPageLock')?.();
      const wait = new AbortController();
      // A journal that fails (a lock manager that throws or rejects) leaves nothing to replay.
      new Promise<readonly string[]>((resolve) => resolve(journal?.pending(wait.signal) ?? []))
        .catch(() => [])
        .then((externalIds) =>
          Promise.allSettled(
            (wait.signal.aborted ? [] : externalIds).map((externalId) =>
              startConsume(consumeContext, { externalId, onOutcome: reporter(externalId), origin: 'reload' }),
            ),
          ),
        )
        .then(() => {
          // With a consume lock, a dead tab's POST may still turn up: then recovered$ completes on dispose().
          if (!firstHook(hooks, 'consumeLock')) reports.complete();
        });
      return new Subscription(() => {
        wait.abort();
        release?.();
        reports.complete();
      });
    },
  };
}
