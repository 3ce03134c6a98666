import type { Observable } from 'rxjs';
import type { BillingCheckResult, UsageInfo } from '../types';
import type { BillingModule } from '../client-types';
import { initialStatus, type BillingStatus } from '../status/billing-status';
// Display equality is the same as onChange's: every field but the ticking countdown, which has its own store.
import { sameUsage } from '../core/usage-view';

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
  /** What the server renders: what this client knows at that moment (`null`, `insufficient`, 0 before any fetch). */
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
  /** The client's status; the server snapshot is the initial one (not loaded), so SSR renders "loading". */
  readonly status: ExternalStore<BillingStatus>;
}

const INSUFFICIENT: BillingCheckResult = Object.freeze({ canProceed: false, reason: 'insufficient' });

// After dispose the billing methods throw; a mounted component keeps showing the last value.
function orLast<T>(read: () => T, last: T): T {
  try {
    return read();
  } catch {
    return last;
  }
}

// Every source is subscribed on its own: two plain subscriptions, no combining operator in the bundle.
function store<T>(sources: ReadonlyArray<Observable<unknown>>, read: (last: T) => T, initial: T): ExternalStore<T> {
  let last = initial;
  const getSnapshot = () => (last = read(last));
  return {
    subscribe: (onStoreChange) => {
      const subscriptions = sources.map((source$) => source$.subscribe(() => onStoreChange()));
      return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
    },
    getSnapshot,
    getServerSnapshot: getSnapshot,
  };
}

function readNow<T>(source$: Observable<T>, last: T): T {
  let value = last;
  // The client's observables replay their current value synchronously; only that one is read.
  source$.subscribe((current) => (value = current)).unsubscribe();
  return value;
}

function createStores(billing: BillingModule): BillingStores {
  return {
    usage: store<UsageInfo | null>(
      [billing.usage$],
      (last) => {
        const fresh = orLast(() => billing.getCachedUsage(), last);
        return sameUsage(last, fresh) ? last : fresh;
      },
      null,
    ),
    // check() returns frozen shared objects, so its result is already a stable snapshot.
    check: store(
      [billing.usage$, billing.freePeriodRemaining$],
      (last) => orLast(() => billing.check(), last),
      INSUFFICIENT,
    ),
    freePeriodRemaining: store(
      [billing.freePeriodRemaining$],
      (last) => readNow(billing.freePeriodRemaining$, last),
      0,
    ),
    // getStatus() returns the same frozen object until something changed: already a stable snapshot.
    status: {
      ...store([billing.status$], (last) => orLast(() => billing.getStatus(), last), initialStatus.view),
      // The server never knows what the browser's client will: hydration starts from "not loaded".
      getServerSnapshot: () => initialStatus.view,
    },
  };
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
  let stores = cache.get(billing);
  if (stores === undefined) {
    stores = createStores(billing);
    cache.set(billing, stores);
  }
  return stores;
}
