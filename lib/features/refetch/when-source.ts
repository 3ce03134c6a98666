import { Observable, type SchedulerLike, type Subscribable, type Unsubscribable } from 'rxjs';
import type { Rule } from '../../shared/option-names';
import { inBackground } from '../../shared/scheduler';

// The wait before subscribing again to a source that ended: 1 s, doubled each time, at most 30 s.
const FIRST_MS = 1_000;
const LAST_MS = 30_000;

/** What `refetchOn()` checks `when` against: anything with a `subscribe` method. */
export const WHEN_RULE: Rule = [
  (value: Subscribable<unknown> | null) => typeof value?.subscribe === 'function',
  'an Observable or an object with subscribe()',
];

/**
 * Subscribes to `source` now and calls `refetchUsage` for each value it emits. A
 * source that errors, completes or throws on subscribe is subscribed again
 * after 1 s, 2 s, 4 s … at most 30 s on the scheduler (a value brings the wait
 * back to 1 s), and `refetchUsage` is called once then, for what was missed while
 * nobody listened. In development its first end is one `console.warn` naming
 * the error. Returns the teardown, which unsubscribes and cancels the wait.
 */
export function watchSource(
  source: Subscribable<unknown>,
  refetchUsage: () => void,
  scheduler: SchedulerLike,
): () => void {
  // Through an Observable each subscription ends once: a throw on subscribe is its error, and a second
  // error, or a value after the end or after the teardown, is not heard.
  const source$ = new Observable<unknown>((subscriber) => source.subscribe(subscriber));
  let subscription: Unsubscribable | undefined;
  let timer: Unsubscribable | undefined;
  let wait = FIRST_MS;
  let warned = false;

  const subscribe = (): void => {
    subscription = source$.subscribe({
      next: () => {
        wait = FIRST_MS;
        refetchUsage();
      },
      error: (error: unknown) => end(error),
      complete: () => end(undefined, true),
    });
  };
  const end = (error: unknown, completed?: boolean): void => {
    if (__DEV__ && !warned) {
      warned = true;
      console.warn(
        `unified-billing: the refetchOn({ when }) source ${completed ? 'completed' : `failed: ${String(error)}`}; ` +
          `subscribing again in ${wait / 1000} s, then refetching (waits double up to 30 s; warned once per client)`,
      );
    }
    timer = inBackground(scheduler).schedule(() => {
      subscribe();
      refetchUsage();
    }, wait);
    wait = Math.min(wait * 2, LAST_MS);
  };

  subscribe();
  return () => {
    timer?.unsubscribe();
    subscription?.unsubscribe();
  };
}
