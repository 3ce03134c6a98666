import type { Observable } from 'rxjs';
import type { BillingCheckResult, BillingModule, BillingStatus, UsageInfo } from '../index';
import { initialStatus } from '../shared/billing-status';
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

// `snapshot()` comes with the bootstrap (issue 19); a client without it is treated as never bootstrapped.
function knewAnswer(billing: BillingModule): boolean {
  const withSnapshot = billing as BillingModule & { snapshot?: () => unknown };
  return typeof withSnapshot.snapshot === 'function' && orLast(() => withSnapshot.snapshot?.() != null, false);
}

// With a snapshot when the stores are made (in a browser: a bootstrap, as the first hook renders), the
// server snapshot is that first view, kept: the server rendered from the same snapshot, and a part that
// hydrates after a fetch answered must still match its HTML. React re-renders with getSnapshot after.
function pinnedServer<T>(store: ExternalStore<T>, bootstrapped: boolean, otherwise: () => T): ExternalStore<T> {
  if (!bootstrapped) return { ...store, getServerSnapshot: otherwise };
  const first = store.getSnapshot();
  return { ...store, getServerSnapshot: () => first };
}

function createStores(billing: BillingModule): BillingStores {
  const bootstrapped = knewAnswer(billing);
  const usage = store<UsageInfo | null>(
    [billing.usage$],
    (last) => {
      const fresh = orLast(() => billing.getCachedUsage(), last);
      return sameUsage(last, fresh) ? last : fresh;
    },
    null,
  );
  const status = store([billing.status$], (last) => orLast(() => billing.getStatus(), last), initialStatus);
  return {
    usage: pinnedServer(usage, bootstrapped, usage.getSnapshot),
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
    // Without a bootstrap the server never knows what the browser's client will: hydration starts
    // from "not loaded".
    status: pinnedServer(status, bootstrapped, () => initialStatus),
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
