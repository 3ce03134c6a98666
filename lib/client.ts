import type { SchedulerLike } from 'rxjs';
import type { Client, BillingModule } from './client-types';
import { Engine } from './engine/engine';
import { Monitor } from './engine/monitor';
import type { FeatureParts } from './engine/feature';
import { BillingError } from './errors';
import { resolveOptions, type ClientOptions, type ResolvedOptions } from './options';
import { defaultFetch } from './platform/default-fetch';
import { randomId } from './platform/random-id';
import { armRefetch } from './refetch/refetch';
import { monotonicScheduler } from './scheduler';
import { createBillingApi } from './transport/billing-api';
import { defaultRetryPolicy } from './transport/retry-policy';

// The opt-in features bring their own code; without them the engine is exactly the core.
function featuresOf(resolved: ResolvedOptions, scheduler: SchedulerLike): FeatureParts[] {
  // A scheduler the user gave reads a clock all tabs share (tests share one virtual clock);
  // the default one is monotonic, with an origin per page, so pages meet on Date.now.
  const own = resolved.scheduler === undefined || resolved.scheduler === monotonicScheduler;
  const wall = (scheduler as { wallNow?: () => number }).wallNow;
  const wallNow = typeof wall === 'function' ? () => wall.call(scheduler) : own ? Date.now : () => scheduler.now();
  const setup = {
    scope: resolved.scope,
    scheduler,
    timeoutMs: resolved.timeoutMs,
    retries: resolved.retries,
    wallNow,
    pageId: randomId(),
  };
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
  const monitor = new Monitor(scheduler, resolved.onEvent);
  const api = createBillingApi(
    {
      baseUrl: resolved.baseUrl,
      headers: resolved.headers,
      fetch: resolved.fetch ?? defaultFetch,
      scheduler,
      timeoutMs: resolved.timeoutMs,
      policy: { ...defaultRetryPolicy, retries: resolved.retries },
      onUnauthorized: resolved.onUnauthorized,
      onRetry: ({ attempt, delayMs, path }) => {
        // The transport numbers attempts (2 is the first retry); the event counts retries.
        if (monitor.listening) {
          monitor.emit({ type: 'request:retry', at: scheduler.now(), attempt: attempt - 1, delayMs, path });
        }
      },
    },
    resolved.appKey,
  );
  const engine = new Engine({ api, scheduler, newId: randomId, features: featuresOf(resolved, scheduler), monitor });
  // Each refetch joins a usage fetch in flight, as getUsage() does; a failure shows in the status.
  if (resolved.refetch !== undefined) {
    const disarm = armRefetch(resolved.refetch, {
      refetch: () => void engine.getUsage().catch(() => undefined),
      scheduler,
    });
    engine.onDispose(disarm);
  }
  const billing: BillingModule = {
    getUsage: (options) => engine.getUsage(options),
    getCachedUsage: () => engine.cached(),
    check: () => engine.check(),
    consume: (options) => engine.consume(options),
    refreshCredits: async () => {
      await engine.balance();
    },
    onChange: (callback) => {
      engine.assertLive();
      if (typeof callback !== 'function') throw new BillingError('invalid_argument', 'onChange needs a function');
      const subscription = engine.changes$.subscribe((usage) => callback(usage));
      return () => subscription.unsubscribe();
    },
    usage$: engine.usage$,
    freePeriodRemaining$: engine.freePeriodRemaining$,
    recovered$: engine.recovered$,
    getStatus: () => (engine.assertLive(), monitor.current),
    status$: monitor.status$,
    events$: monitor.events$,
    preview: () => engine.preview(),
    dispose: () => engine.dispose(),
  };
  return { billing, credits: { getBalance: () => engine.balance() } };
}
