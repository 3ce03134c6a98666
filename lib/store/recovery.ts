import { ReplaySubject, Subscription } from 'rxjs';
import type { RecoveredConsume } from '../shared/feature-types';
import { firstHook, type Recovery, type StoreHooks } from './hooks';

/**
 * The one `recovered$` for an unanswered POST, whichever road finds it: the
 * journal at start (a page reloaded) or the consume lock's answer (a tab that
 * died); both are replayed by the store's consume steps (`store/consume.ts`),
 * which report here. Every outcome goes to the features that listen, and to
 * each subscriber (replayed); the store completes it once no more can come.
 * While this page lives it holds its page lock, and a mark for each id it
 * reported, so that a page learning the same outcome later does not report
 * it again.
 */
export function recovery(hooks: readonly StoreHooks[]): Recovery {
  const listeners = hooks.flatMap((hook) => hook.onRecovered ?? []);
  const marks = firstHook(hooks, 'reportMarks');
  const reports = new ReplaySubject<RecoveredConsume>();
  const stop = new AbortController();
  // This page's alive lock, for the client's life (a free one tells other pages it is gone), and its marks.
  const held = new Subscription(firstHook(hooks, 'holdPageLock')?.());
  return {
    recovered$: reports.asObservable(),
    signal: stop.signal,
    report(recovered) {
      held.add(marks?.hold(recovered.externalId));
      listeners.forEach((listener) => listener(recovered));
      reports.next(recovered);
    },
    complete: () => reports.complete(),
    dispose() {
      stop.abort();
      reports.complete();
      held.unsubscribe();
    },
  };
}
