import type { SchedulerLike } from 'rxjs';
import type { Client, BillingModule } from './client-types';
import type { DevtoolsHook } from '../features/devtools-hook';
import { Engine } from '../store/create-store';
import type { BillingFeature, FeatureParts, FeatureSetup } from '../features/feature';
import { invalid } from './option-names';
import { resolveOptions, type ClientOptions } from './options';
import { defaultFetch } from '../platform/default-fetch';
import { randomId } from '../platform/random-id';
import { armRefetch } from '../features/refetch/refetch';
import { monotonicScheduler } from '../shared/scheduler';
import { createBillingApi } from '../transport/billing-api';
import { defaultRetryPolicy } from '../transport/retry-policy';

// The opt-in features bring their own code; without them the engine is exactly the core. DevTools
// comes first, so it sees each action before another feature's effect answers it. Outside
// createClient, so that its closures do not keep `setup` alive.
const featuresOf = (features: ReadonlyArray<DevtoolsHook | BillingFeature | undefined>, setup: FeatureSetup) =>
  features.flatMap((feature): FeatureParts[] => (feature ? [feature.install(setup)] : []));

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
  const resolved = resolveOptions(options);
  const { scope, scheduler, timeoutMs, retries } = resolved;
  const { headers, fetch, onUnauthorized, appKey, devtools, storage, sync, onEvent } = options;
  const wallNow = wallClock(scheduler);
  const live: Engine = new Engine({
    api: createBillingApi(
      {
        baseUrl: resolved.baseUrl,
        headers: headers,
        fetch: fetch ?? defaultFetch,
        scheduler,
        timeoutMs,
        policy: { ...defaultRetryPolicy, retries },
        onUnauthorized,
        // The transport numbers attempts (2 is the first retry); the event counts retries.
        // Called only once a request is under way, so after the engine exists.
        onRetry: ({ attempt, delayMs, path }) => live.retried(attempt - 1, delayMs, path),
      },
      appKey,
    ),
    scheduler,
    wallNow,
    newId: randomId,
    features: featuresOf([devtools, storage, sync], {
      scope,
      scheduler,
      timeoutMs,
      retries,
      wallNow,
      pageId: randomId(),
    }),
    scope,
    onEvent,
    bootstrap: resolved.bootstrap,
  });
  // Each refetch joins the newest usage fetch (one a nudge queued first), as getUsage() does; a failure shows in the status.
  if (resolved.refetch !== undefined) {
    live.onDispose(
      armRefetch(resolved.refetch, { refetch: () => void live.getUsage().catch(() => undefined), scheduler }),
    );
  }
  // The engine's members are closures: they are handed over as they are.
  const billing: BillingModule = {
    getUsage: live.getUsage,
    getCachedUsage: live.cached,
    check: live.check,
    consume: live.consume,
    refreshCredits: () => live.getBalance().then(() => undefined),
    onChange: (callback) => {
      live.assertLive();
      if (typeof callback !== 'function') invalid('onChange needs a function', callback);
      const subscription = live.changes$.subscribe((usage) => callback(usage));
      return () => subscription.unsubscribe();
    },
    usage$: live.usage$,
    freePeriodRemaining$: live.freePeriodRemaining$,
    recovered$: live.recovered$,
    getStatus: live.status,
    status$: live.status$,
    events$: live.events$,
    preview: live.preview,
    // After dispose() the state is the last one: nothing is applied any more.
    snapshot: live.snapshot,
    dispose: live.dispose,
  };
  return { billing, credits: { getBalance: live.getBalance } };
}
