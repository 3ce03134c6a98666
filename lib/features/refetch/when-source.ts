import { Observable, Subscription, type SchedulerLike, type Subscribable } from 'rxjs';
import { inBackground } from '../../shared/scheduler';
import type { EffectDeps } from '../../store/effect';

// The wait before subscribing again to a source that ended: 1 s, doubled each time, at most 30 s.
const FIRST_MS = 1_000;
const LAST_MS = 30_000;

/** What {@link watchSource} watches, and what it calls. */
export interface WatchOptions {
  readonly source: Subscribable<unknown>;
  /**
   * The store's usage fetches: `join()` the newest, `join({ fresh: 'after' })` one sent after the call (a
   * tab's change message's refetch), each settling once the fetch that answers it is applied.
   */
  readonly usage: Pick<EffectDeps['usage'], 'join'>;
  readonly scheduler: SchedulerLike;
  /** The store's facts: `usage/started` says the fetch a pending refetch joined has gone out. */
  readonly actions?: Subscribable<{ readonly type: string }>;
}

/**
 * Subscribes to `source` now and refetches for each value it emits. A
 * source that errors, completes or throws on subscribe is subscribed again
 * after 1 s, 2 s, 4 s … at most 30 s on the scheduler (a value brings the wait
 * back to 1 s), and refetches once then, for what was missed while nobody
 * listened. In development its first end is one `console.warn` naming the
 * error's class (never its text, which may quote a URL with a token).
 * Returns the teardown, which unsubscribes and cancels the wait.
 */
export function watchSource({ source, usage, scheduler, actions }: WatchOptions): () => void {
  // Through an Observable each subscription ends once: a throw on subscribe is its error, and a second
  // error, or a value after the end or after the teardown, is not heard.
  const source$ = new Observable<unknown>((subscriber) => source.subscribe(subscriber));
  // The source's subscription, the wait before the next one, and the store's facts: each leaves it as it ends.
  const teardown = new Subscription();
  let wait = FIRST_MS;
  let warned = false;
  // One wait at a time, however many values come while a fetch is held: a refetch whose fetch has not gone
  // out yet (`unsent`: the store's `usage/started` says it went, its settling says it never will) answers
  // every value until it does; a value after that asks for one more, which the store queues behind it.
  // Without the store's facts, each value asks (the store's queue still makes a burst one fetch).
  let unsent = false;
  const sent = () => (unsent = false);
  teardown.add(actions?.subscribe({ next: ({ type }) => type === 'usage/started' && sent() }));
  const nudge = (): void => {
    if (teardown.closed || unsent) return;
    unsent = !!actions;
    // A failed fetch shows in the status.
    void usage.join({ fresh: 'after' }).then(sent, sent);
  };

  const listener = {
    next: () => {
      wait = FIRST_MS;
      nudge();
    },
    error: (error: unknown) => end(error),
    complete: () => end(undefined, true),
  };
  const subscribe = (): void => void teardown.add(source$.subscribe(listener));
  const end = (error: unknown, completed?: boolean): void => {
    if (__DEV__ && !warned) {
      warned = true;
      // Named by its class only (as tabSync's warning): an error's text may quote a URL with a token.
      const failed = `failed (${(error as Error | null)?.name || typeof error})`;
      console.warn(
        `unified-billing: the refetchOn({ when }) source ${completed ? 'completed' : failed}; ` +
          `subscribing again in ${wait / 1000} s, then refetching (waits double up to 30 s; warned once per client)`,
      );
    }
    teardown.add(
      inBackground(scheduler).schedule(() => {
        subscribe();
        nudge();
      }, wait),
    );
    wait = Math.min(wait * 2, LAST_MS);
  };

  subscribe();
  return () => teardown.unsubscribe();
}
