import { Subscription, type SchedulerAction, type Subscribable } from 'rxjs';
import { invalid } from '../../shared/errors';
import { checkFields, integer, type Rule } from '../../shared/option-names';
import { inBackground } from '../../shared/scheduler';
import { listen, type Listenable } from '../page-life';
import { watchSource, type WatchOptions } from './when-source';

/**
 * Options of `refetchOn()`: when to fetch usage again by itself.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl, appKey: 'poster', refetch: refetchOn({ focus: true, online: true }) });
 * ```
 */
export interface RefetchOptions {
  /** Refetch when the page becomes visible or the window gets focus. */
  readonly focus?: boolean;
  /** Refetch when the browser comes back online. */
  readonly online?: boolean;
  /** Refetch every `intervalMs` on the scheduler (an integer, at least 1000). */
  readonly intervalMs?: number;
  /**
   * Refetch each time this source emits: an RxJS `Observable`, or anything
   * with `subscribe(observer)`, such as the app's `EventSource` or WebSocket
   * wrapped in `fromEvent`. A value is only a nudge ("the server's usage
   * changed"): it is never read, and a burst shares one fetch. Subscribed when
   * the client is created, unsubscribed on `dispose()`; a source that errors
   * or completes is subscribed again after 1 s, doubling up to 30 s, then one
   * refetch catches what was missed.
   */
  readonly when?: Subscribable<unknown>;
}

/**
 * The part of the browser refetch listens to: the globals by default (none in Node).
 */
export interface RefetchTarget {
  readonly window?: Listenable | undefined;
  readonly document?: (Listenable & { readonly visibilityState: string }) | undefined;
  readonly navigator?: { readonly onLine?: boolean } | undefined;
}

// Focus and online together cause at most one refetch per this window.
const THROTTLE_MS = 2_000;
const BOOLEAN: Rule = [(value) => typeof value === 'boolean', 'a boolean'];
// setTimeout runs a longer delay at once: a refetch loop, not a slow poll. The call is marked pure: dist/ is
// one file, where an app's bundler otherwise keeps a module-level call, and with it this table and its texts,
// in every app, refetchOn() called or not (about 90 B gzipped).
const RULES: Readonly<Record<string, Rule>> = {
  focus: BOOLEAN,
  online: BOOLEAN,
  intervalMs: /* @__PURE__ */ integer(1000, 2_147_483_647),
  // Anything with a `subscribe` method.
  when: [
    (value: Subscribable<unknown> | null) => typeof value?.subscribe === 'function',
    'an Observable or an object with subscribe()',
  ],
};

/**
 * Validates `refetchOn()`'s options: a copy, or `undefined` when they ask for
 * nothing (so nothing is armed). Throws `invalid_argument` naming the field
 * and what it got, or an unknown field with the nearest valid name.
 */
export function checkRefetch(value: unknown): RefetchOptions | undefined {
  if (typeof value !== 'object' || value === null) {
    invalid('refetchOn() needs an object such as { focus: true }', value);
  }
  checkFields(value, RULES, 'refetchOn() ');
  const { focus, online, intervalMs, when } = value as RefetchOptions;
  return focus || online || intervalMs || when ? { focus, online, intervalMs, when } : undefined;
}

/**
 * Arms the refetches `options` ask for and returns the teardown, which removes
 * every listener and timer and unsubscribes `when`. Focus, online and the
 * interval join the newest usage fetch, as `getUsage()` does; `when` joins one
 * sent after the value, as a tab's change message does.
 */
export function armRefetch(
  options: RefetchOptions,
  // The store's `usage`, `scheduler` and `actions` (the store's facts, so that `when` keeps one wait however
  // many values come) as watchSource takes them.
  deps: Omit<WatchOptions, 'source'> & { readonly target?: RefetchTarget },
): () => void {
  const { usage, scheduler } = deps;
  // Never rejects (a throw would end the interval, as any throwing scheduler work does): a failed fetch
  // shows in the status.
  const refetch = () => void usage.join().catch(() => undefined);
  const { window: win, document: doc, navigator: nav } = deps.target ?? (globalThis as RefetchTarget);
  const teardown = new Subscription();
  let last = -Infinity;

  const onSignal = (): void => {
    const now = scheduler.now();
    const since = now - last;
    // Offline, a refetch can only fail; the `online` event will bring one. A
    // clock set back (an injected wall-clock scheduler) must not mute refetch.
    if ((since >= 0 && since < THROTTLE_MS) || nav?.onLine === false) return;
    last = now;
    refetch();
  };
  if (__DEV__ && (options.focus || options.online) && win && typeof win.addEventListener !== 'function') {
    console.warn(
      'unified-billing: refetchOn({ focus, online }) does nothing here: this window has no events (React Native). ' +
        "Pass refetchOn({ when }) a source of AppState's 'change' to 'active' instead (docs/react-native.md)",
    );
  }

  // Nothing to listen to where a target has no events (listen's `undefined`).
  if (options.focus) {
    teardown.add(listen(win, 'focus', onSignal));
    teardown.add(listen(doc, 'visibilitychange', () => doc?.visibilityState === 'visible' && onSignal()));
  }
  if (options.online) teardown.add(listen(win, 'online', onSignal));
  const every = options.intervalMs;
  if (every) {
    const tick = function (this: SchedulerAction<undefined>): void {
      this.schedule(undefined, every);
      refetch();
    };
    teardown.add(inBackground(scheduler).schedule(tick, every));
  }
  // Not throttled: the refetch's own sharing bounds a burst to one fetch beyond the one in flight.
  if (options.when) teardown.add(watchSource({ ...deps, source: options.when }));
  return () => teardown.unsubscribe();
}
