import type { Observable } from 'rxjs';
import type { BillingCheckResult, BillingModule, BillingStatus, UsageInfo } from '../index';
import { initialStatus } from '../shared/billing-status';
import { unlessThrows } from '../shared/errors';
// Display equality is the same as onChange's: every field but the ticking countdown, which has its own store.
import { sameUsage } from '../shared/quota-keys';

/**
 * The three functions `useSyncExternalStore` takes. Snapshots are stable:
 * the same value (by `Object.is`) until something the hook shows changed.
 *
 * @example
 * ```ts
 * const store = billingStores(client.billing).usage;
 * const unsubscribe = store.subscribe(() => console.log(store.getSnapshot()));
 * ```
 */
export interface ExternalStore<T> {
  /** Calls `onStoreChange` when the snapshot may have changed; returns the unsubscribe function. */
  subscribe(onStoreChange: () => void): () => void;
  /** The current value; the same object until something shown changed. */
  getSnapshot(): T;
  /**
   * What the server renders and hydration starts from. For `usage` and `status` of a
   * client that had a snapshot when its stores were made (its `bootstrap`): that view,
   * kept. Otherwise what the client knows at that moment (`null`, `insufficient`, 0
   * before any fetch), and the initial status (not loaded).
   */
  getServerSnapshot(): T;
}

/**
 * The stores behind the hooks, one set per billing module.
 *
 * @example
 * ```ts
 * const { check } = billingStores(client.billing);
 * const verdict = check.getSnapshot(); // the same frozen object as billing.check()
 * ```
 */
export interface BillingStores {
  readonly usage: ExternalStore<UsageInfo | null>;
  readonly check: ExternalStore<BillingCheckResult>;
  readonly freePeriodRemaining: ExternalStore<number>;
  /** The client's status; the server snapshot is the bootstrap's (loaded), else the initial one (SSR renders "loading"). */
  readonly status: ExternalStore<BillingStatus>;
}

const INSUFFICIENT: BillingCheckResult = Object.freeze({ canProceed: false, reason: 'insufficient' });

// Every source is subscribed on its own: two plain subscriptions, no combining operator in the bundle.
// `read` gets the last snapshot, to return it again while nothing shown changed.
function store<T>(sources: ReadonlyArray<Observable<unknown>>, initial: T, read: (last: T) => T): ExternalStore<T> {
  let last = initial;
  // After dispose the billing methods throw; a mounted component keeps showing the last value. No
  // snapshot is null or undefined once one was not: the usage is null only before the first fetch.
  const getSnapshot = (): T => (last = unlessThrows(() => read(last)) ?? last);
  return {
    subscribe: (onStoreChange) => {
      const subscriptions = sources.map((source$) => source$.subscribe(() => onStoreChange()));
      return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
    },
    getSnapshot,
    getServerSnapshot: getSnapshot,
  };
}

function withServerSnapshot<T>(store: ExternalStore<T>, serverSnapshot: T): ExternalStore<T> {
  return { ...store, getServerSnapshot: () => serverSnapshot };
}

const cache = new WeakMap<BillingModule, BillingStores>();

/**
 * The external stores of a billing module, created once per module so their
 * `subscribe` functions keep their identity across renders.
 *
 * @example
 * ```ts
 * const usage = useSyncExternalStore(billingStores(billing).usage.subscribe, billingStores(billing).usage.getSnapshot);
 * ```
 */
export function billingStores(billing: BillingModule): BillingStores {
  const cached = cache.get(billing);
  if (cached !== undefined) return cached;
  const usage = store<UsageInfo | null>([billing.usage$], null, (last) => {
    const fresh = billing.getCachedUsage();
    return sameUsage(last, fresh) ? last : fresh;
  });
  // getStatus() and check() return the same frozen object until something changed: already stable snapshots.
  const status = store([billing.status$], initialStatus, () => billing.getStatus());
  // With a snapshot when the stores are made (in a browser: a bootstrap, as the first hook renders), the
  // server snapshot is that first view, kept: the server rendered from the same snapshot, and a part that
  // hydrates after a fetch answered must still match its HTML. React re-renders with getSnapshot after.
  const bootstrapped = billing.snapshot() !== null;
  const stores: BillingStores = {
    usage: bootstrapped ? withServerSnapshot(usage, usage.getSnapshot()) : usage,
    check: store([billing.usage$, billing.freePeriodRemaining$], INSUFFICIENT, () => billing.check()),
    // The countdown replays its current value synchronously; only that one is read.
    freePeriodRemaining: store([billing.freePeriodRemaining$], 0, (last) => {
      let seconds = last;
      billing.freePeriodRemaining$.subscribe((current) => (seconds = current)).unsubscribe();
      return seconds;
    }),
    // Without a bootstrap the server never knows what the browser's client will: hydration starts from "not loaded".
    status: withServerSnapshot(status, bootstrapped ? status.getSnapshot() : initialStatus),
  };
  cache.set(billing, stores);
  return stores;
}
