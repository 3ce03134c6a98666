import { Engine } from './engine/engine';
import { resolveOptions } from './options';
import { monotonicScheduler } from './scheduler';
import { createBillingApi } from './transport/billing-api';
import { defaultFetch } from './platform/default-fetch';
import { defaultRetryPolicy, type RetryPolicy } from './transport/retry-policy';
import type { BillingModule, Client, ClientOptions } from './types';
import { BillingError } from './errors';
import type { EngineExtensions } from './engine/extensions';
import type { ResolvedOptions } from './options';
import type { SchedulerLike } from 'rxjs';

// Duck-typed, so a signal from another realm (an iframe) or a polyfill passes.
function isSignal(value: unknown): boolean {
  const candidate = value as Partial<AbortSignal> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.aborted === 'boolean' &&
    typeof candidate.addEventListener === 'function' &&
    typeof candidate.removeEventListener === 'function'
  );
}

/**
 * Runs a call with its options normalised: `null` is no options, and a
 * `signal` that cannot be listened to is refused before any request (inside
 * the engine it would throw too late, with the consume already under way).
 */
function withOptions<T extends { readonly signal?: AbortSignal }, R>(
  options: T | null | undefined,
  call: string,
  run: (options: T | undefined) => Promise<R>,
): Promise<R> {
  const given = options ?? undefined;
  const signal = typeof given === 'object' ? given.signal : undefined;
  if (signal !== undefined && !isSignal(signal)) {
    const externalId = (given as { externalId?: unknown }).externalId;
    const details = typeof externalId === 'string' ? { externalId } : {};
    return Promise.reject(new BillingError('invalid_argument', `${call}: signal must be an AbortSignal`, details));
  }
  return run(given);
}

// The opt-in features bring their own code; without them the engine is exactly the core.
function extensionsFor(resolved: ResolvedOptions, scheduler: SchedulerLike): EngineExtensions {
  // A scheduler the user gave reads a clock all tabs share (tests share one virtual clock);
  // the default one is monotonic, with an origin per page, so pages meet on Date.now.
  const own = resolved.scheduler === undefined || resolved.scheduler === monotonicScheduler;
  const wallNow = own ? Date.now : () => scheduler.now();
  const setup = { scope: resolved.scope, scheduler, timeoutMs: resolved.timeoutMs, retries: resolved.retries, wallNow };
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
    getUsage: (options) => withOptions(options, 'getUsage', (given) => engine.getUsage(given)),
    getCachedUsage: () => engine.cached(),
    check: () => engine.check(),
    consume: (options) => withOptions(options, 'consume', (given) => engine.consume(given)),
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
