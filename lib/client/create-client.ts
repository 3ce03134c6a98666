import type { SchedulerLike } from 'rxjs';
import type { Client } from '../store/billing-module';
import { createStore } from '../store/create-store';
import type { BillingFeature, FeatureSetup } from '../features/feature';
import { firstHook, type StoreHooks } from '../store/hooks';
import { resolveOptions, type ClientOptions } from './options';
import { defaultFetch } from '../platform/default-fetch';
import { newPageId, randomId } from '../platform/random-id';
import { monotonicScheduler } from '../shared/scheduler';
import { createBillingApi } from '../transport/billing-api';

// The opt-in features bring their own code; without them the store is exactly the core. DevTools
// comes first, so it sees each action before another feature's effect answers it. Outside
// createClient, so that its closures do not keep `setup` alive.
const install = (features: ReadonlyArray<BillingFeature | undefined>, setup: FeatureSetup) =>
  features.flatMap((feature): StoreHooks[] => (feature ? [feature.install(setup)] : []));

// A clock all tabs and reloads share: the scheduler's own wall clock when it has one (a test seam
// where the wall clock steps and the monotonic one does not), Date.now for the default scheduler,
// whose monotonic clock has an origin per page, else the given scheduler's clock. Outside
// createClient too, so that its closures hold only the clock.
const wallClock = (scheduler: SchedulerLike): (() => number) =>
  scheduler === monotonicScheduler
    ? Date.now
    : () => ((scheduler as { wallNow?: () => number }).wallNow ?? scheduler.now).call(scheduler);

/**
 * Creates a billing client. Throws a `BillingError` (`invalid_argument`) for
 * invalid options; makes no request until a method is called.
 *
 * @example
 * ```ts
 * import { createClient } from 'unified-billing';
 *
 * const client = createClient({
 *   baseUrl: 'https://api.example.com',
 *   appKey: 'poster',
 *   headers: { Authorization: `Bearer ${token}` },
 * });
 * await client.billing.getUsage();
 * const result = await client.billing.consume(); // a fresh externalId for this one action
 * ```
 */
export function createClient(options: ClientOptions): Client {
  const { baseUrl, scope, scheduler, timeoutMs, policy, bootstrap } = resolveOptions(options);
  const { headers, fetch, onUnauthorized, appKey, devtools, storage, sync, refetch, events } = options;
  const wallNow = wallClock(scheduler);
  // Made when a feature first reads it (tabSync, reloadSafe): a client without them makes none.
  let pageId: string | undefined;
  // The refetch option is a feature by now: resolveOptions refused a 0.1 object, then its rule anything else.
  const hooks = install([devtools, storage, sync, refetch as BillingFeature<'refetch'> | undefined, events], {
    scope,
    scheduler,
    timeoutMs,
    wallNow,
    get pageId() {
      return (pageId ??= newPageId());
    },
  });
  const api = createBillingApi(
    {
      baseUrl,
      headers,
      fetch: fetch ?? defaultFetch,
      scheduler,
      timeoutMs,
      policy,
      onUnauthorized,
      // Made before the store, so a feature that hears retries (events) is wired here.
      onRetry: firstHook(hooks, 'onRetry'),
    },
    appKey,
  );
  // The store's `billing` and `credits` are the client's, as they are.
  return createStore({ api, scheduler, wallNow, newId: randomId, hooks, bootstrap });
}
