import { Engine } from './engine/engine';
import { resolveOptions } from './options';
import { monotonicScheduler } from './scheduler';
import { createBillingApi } from './transport/billing-api';
import { defaultFetch } from './transport/http';
import { defaultRetryPolicy, type RetryPolicy } from './transport/retry-policy';
import type { BillingModule, Client, ClientOptions } from './types';
import { BillingError } from './errors';
import type { EngineExtensions, EnginePlugin } from './engine/extensions';
import { createPersistence } from './persist';
import { createTabSync } from './sync';
import type { ResolvedOptions } from './options';
import type { SchedulerLike } from 'rxjs';

// The opt-in features, wired only when asked for: without them the engine is exactly the core.
function extensionsFor(resolved: ResolvedOptions, scheduler: SchedulerLike): EngineExtensions {
  const plugins: EnginePlugin[] = [];
  let extensions: EngineExtensions = {};
  if (resolved.storage !== undefined) {
    const persistence = createPersistence(resolved.storage, resolved.scope);
    plugins.push(persistence.plugin);
    extensions = { journal: persistence.journal };
  }
  if (resolved.sync !== undefined) {
    // Every attempt may take timeoutMs, and each backoff waits at most 8 s (30 s with Retry-After).
    const holdCapMs = resolved.timeoutMs * (resolved.retries + 1) + 30_000 * resolved.retries + 1_000;
    const sync = createTabSync(resolved.scope, resolved.sync.locks, { scheduler, holdCapMs, wallNow: Date.now });
    if (sync !== null) {
      plugins.push(sync.plugin);
      extensions = { ...extensions, exclusive: sync.exclusive };
    }
  }
  return { ...extensions, plugins };
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
 * const result = await client.billing.consume({ externalId: 'export-42' });
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
