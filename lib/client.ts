import type { SchedulerLike } from 'rxjs';
import type { Client, BillingModule } from './client-types';
import { Engine } from './engine/engine';
import type { FeatureParts, FeatureSetup } from './engine/feature';
import { BillingError } from './errors';
import { resolveOptions, type ClientOptions, type ResolvedOptions } from './options';
import { defaultFetch } from './platform/default-fetch';
import { randomId } from './platform/random-id';
import { armRefetch } from './refetch/refetch';
import { monotonicScheduler } from './scheduler';
import { createBillingApi } from './transport/billing-api';
import { defaultRetryPolicy } from './transport/retry-policy';

// A clock all tabs and reloads share: the scheduler's own wall clock when it has one (a test seam
// where the wall clock steps and the monotonic one does not), Date.now for the default scheduler,
// whose monotonic clock has an origin per page, else the given scheduler's clock.
function wallClock(scheduler: SchedulerLike): () => number {
  const own = (scheduler as { wallNow?: () => number }).wallNow;
  if (typeof own === 'function') return () => own.call(scheduler);
  return scheduler === monotonicScheduler ? Date.now : () => scheduler.now();
}

// The opt-in features bring their own code; without them the engine is exactly the core.
function featuresOf(resolved: ResolvedOptions, setup: FeatureSetup): FeatureParts[] {
  const parts: FeatureParts[] = [];
  for (const feature of [resolved.storage, resolved.sync])
    if (feature !== undefined) parts.push(feature.install(setup));
  return parts;
}

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
  const scheduler = resolved.scheduler ?? monotonicScheduler;
  const wallNow = wallClock(scheduler);
  const { scope, timeoutMs, retries } = resolved;
  const api = createBillingApi(
    {
      baseUrl: resolved.baseUrl,
      headers: resolved.headers,
      fetch: resolved.fetch ?? defaultFetch,
      scheduler,
      timeoutMs,
      policy: { ...defaultRetryPolicy, retries },
      onUnauthorized: resolved.onUnauthorized,
      // The transport numbers attempts (2 is the first retry); the event counts retries.
      // Called only once a request is under way, so after the engine exists.
      onRetry: ({ attempt, delayMs, path }) => live.retried(attempt - 1, delayMs, path),
    },
    resolved.appKey,
  );
  const live: Engine = new Engine({
    api,
    scheduler,
    wallNow,
    newId: randomId,
    features: featuresOf(resolved, { scope, scheduler, timeoutMs, retries, wallNow, pageId: randomId() }),
    scope,
    onEvent: resolved.onEvent,
    bootstrap: resolved.bootstrap,
    devtools: resolved.devtools,
  });
  // Each refetch joins a usage fetch in flight, as getUsage() does; a failure shows in the status.
  if (resolved.refetch !== undefined) {
    live.onDispose(
      armRefetch(resolved.refetch, { refetch: () => void live.getUsage().catch(() => undefined), scheduler }),
    );
  }
  const billing: BillingModule = {
    getUsage: (options) => live.getUsage(options),
    getCachedUsage: () => live.cached(),
    check: () => live.check(),
    consume: (options) => live.consume(options),
    refreshCredits: async () => {
      await live.getBalance();
    },
    onChange: (callback) => {
      live.assertLive();
      if (typeof callback !== 'function') throw new BillingError('invalid_argument', 'onChange needs a function');
      const subscription = live.changes$.subscribe((usage) => callback(usage));
      return () => subscription.unsubscribe();
    },
    usage$: live.usage$,
    freePeriodRemaining$: live.freePeriodRemaining$,
    recovered$: live.recovered$,
    getStatus: () => live.status(),
    status$: live.status$,
    events$: live.events$,
    preview: () => live.preview(),
    snapshot: () => live.snapshot(),
    dispose: () => live.dispose(),
  };
  return { billing, credits: { getBalance: () => live.getBalance() } };
}
