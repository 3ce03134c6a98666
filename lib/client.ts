import { Engine } from './engine/engine';
import { resolveOptions } from './options';
import { monotonicScheduler } from './scheduler';
import { createBillingApi } from './transport/billing-api';
import { defaultFetch } from './transport/http';
import { defaultRetryPolicy, type RetryPolicy } from './transport/retry-policy';
import type { BillingModule, Client, ClientOptions } from './types';
import { BillingError } from './errors';
import type { EngineExtensions } from './engine/extensions';
import type { ResolvedOptions } from './options';
import type { SchedulerLike } from 'rxjs';

// The opt-in features bring their own code; without them the engine is exactly the core.
function extensionsFor(resolved: ResolvedOptions, scheduler: SchedulerLike): EngineExtensions {
  const setup = { scope: resolved.scope, scheduler, timeoutMs: resolved.timeoutMs, retries: resolved.retries };
  const installed = [resolved.storage, resolved.sync].map((feature) => feature?.install(setup) ?? {});
  return {
    ...installed[0],
    ...installed[1],
    plugins: installed.flatMap((extensions) => extensions.plugins ?? []),
  };
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
  const policy: RetryPolicy = { ...defaultRetryPolicy, retries: resolved.retries };
  const api = createBillingApi(
    {
      baseUrl: resolved.baseUrl,
      headers: resolved.headers,
      fetch: resolved.fetch ?? defaultFetch,
      scheduler,
      timeoutMs: resolved.timeoutMs,
      policy,
    },
    resolved.appKey,
  );
  const engine = new Engine(api, scheduler, extensionsFor(resolved, scheduler));
  const billing: BillingModule = {
    getUsage: (getUsageOptions) => engine.getUsage(getUsageOptions),
    getCachedUsage: () => engine.cached(),
    check: () => engine.check(),
    consume: (consumeOptions) => engine.consume(consumeOptions),
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
    dispose: () => engine.dispose(),
  };
  return { billing, credits: { getBalance: () => engine.balance() } };
}
