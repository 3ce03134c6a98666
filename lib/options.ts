import type { SchedulerLike } from 'rxjs';
import type { BillingFeature } from './engine/feature';
import type { BillingEvent } from './events/billing-event';
import { checkOptionNames, invalid } from './option-names';
import type { DevtoolsHook } from './devtools-hook';
import { checkRefetch, type RefetchOptions } from './refetch/refetch';
import { checkSnapshot, type BillingSnapshot } from './snapshot';
import { checkedHeaders } from './transport/headers';
import type { FetchLike, HeadersOption } from './types';

/**
 * Options of `createClient()`.
 *
 * @example
 * ```ts
 * const options: ClientOptions = {
 *   baseUrl: 'https://api.example.com',
 *   appKey: 'poster',
 *   headers: { Authorization: 'Bearer <token>' },
 * };
 * ```
 */
export interface ClientOptions {
  /** Absolute http(s) URL without credentials, query or fragment. */
  readonly baseUrl: string;
  /** Application key; the module value sent is `generator_<appKey>`. */
  readonly appKey: string;
  /**
   * Added to every request; authentication goes here. A function is called
   * before every attempt, retries included. Values never appear in an error,
   * message or log.
   */
  readonly headers?: HeadersOption;
  /**
   * The function every request goes through: by default the platform
   * `fetch` in the browser build, `cross-fetch` elsewhere. It must honour
   * `init.signal`: timeouts and `dispose()` abort through it.
   */
  readonly fetch?: FetchLike;
  /** Every clock reading and timer of the client; a monotonic async scheduler by default. */
  readonly scheduler?: SchedulerLike;
  /** Per attempt, body included. Default 10000. */
  readonly timeoutMs?: number;
  /** Extra attempts for retryable failures. Default 2. */
  readonly retries?: number;
  /**
   * Keeps the free period and unanswered consumes across reloads (`sessionStorage`
   * is the usual choice: see docs/recipes/reload-safe.md). Off by default.
   */
  readonly storage?: BillingFeature<'storage'>;
  /** Shares the free period and the latest usage between tabs of one origin (`tabSync()`). Off by default. */
  readonly sync?: BillingFeature<'sync'>;
  /**
   * Names the storage keys and the tab channel; `generator_<appKey>` by default.
   * Set it per user (e.g. to the user id) where several users share one browser.
   */
  readonly scope?: string;
  /**
   * Refetches usage when the page becomes visible or focused (`onFocus`),
   * comes back online (`onOnline`), or every `intervalMs` (at least 1000).
   * Off by default: nothing is listened to or armed without it.
   */
  readonly refetch?: RefetchOptions;
  /** Hears every {@link BillingEvent}; a throwing listener is reported once and never breaks billing. */
  readonly onEvent?: (event: BillingEvent) => void;
  /**
   * Called once on a 401 (shared by requests that hit it together); the
   * request is then sent once more with freshly resolved `headers`, with the
   * same `external_id` for a consume. A second 401 rejects `http` 401.
   */
  readonly onUnauthorized?: () => void | Promise<void>;
  /**
   * A `billing.snapshot()` taken elsewhere (on the server): its usage is cached
   * at once, nothing is fetched because of it, and any later answer replaces it.
   */
  readonly bootstrap?: BillingSnapshot | null;
  /** Shows every action and state in a DevTools panel (`reduxDevtools()` from `unified-billing/devtools`). */
  readonly devtools?: DevtoolsHook;
}

/** Options after validation and defaults. */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly appKey: string;
  readonly headers: HeadersOption | undefined;
  readonly fetch: FetchLike | undefined;
  readonly scheduler: SchedulerLike | undefined;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly storage: BillingFeature<'storage'> | undefined;
  readonly sync: BillingFeature<'sync'> | undefined;
  readonly scope: string;
  readonly refetch: RefetchOptions | undefined;
  readonly onEvent: ((event: BillingEvent) => void) | undefined;
  readonly onUnauthorized: (() => void | Promise<void>) | undefined;
  readonly bootstrap: BillingSnapshot | undefined;
  readonly devtools: DevtoolsHook | undefined;
}

// Every name createClient reads, checked against ClientOptions both ways by the
// type; `bootstrap` and `devtools` come with the snapshot and devtools hook.
const OPTION_NAMES: Record<keyof ClientOptions | 'bootstrap' | 'devtools', true> = {
  baseUrl: true,
  appKey: true,
  headers: true,
  fetch: true,
  scheduler: true,
  timeoutMs: true,
  retries: true,
  storage: true,
  sync: true,
  scope: true,
  refetch: true,
  onEvent: true,
  onUnauthorized: true,
  bootstrap: true,
  devtools: true,
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Only the shape of the URL is reported: it may embed a credential.
function checkBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string' || baseUrl === '') invalid('baseUrl must be a non-empty string');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    invalid('baseUrl must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') invalid('baseUrl must use http or https');
  if (url.username !== '' || url.password !== '') invalid('baseUrl must not carry credentials');
  if (baseUrl.includes('?') || baseUrl.includes('#')) invalid('baseUrl must not carry a query or fragment');
  return url.href.replace(/\/+$/, '');
}

function checkScheduler(scheduler: unknown): SchedulerLike | undefined {
  if (scheduler === undefined) return undefined;
  const candidate = scheduler as Partial<SchedulerLike> | null;
  if (typeof candidate?.now !== 'function' || typeof candidate.schedule !== 'function') {
    invalid('scheduler must be an RxJS SchedulerLike with now() and schedule()', scheduler);
  }
  return scheduler as SchedulerLike;
}

// A function is checked per attempt, on what it gives; a record or Headers here, and again per attempt.
function checkHeaders(headers: unknown): HeadersOption | undefined {
  if (headers !== undefined && typeof headers !== 'function') checkedHeaders(headers);
  return headers as HeadersOption | undefined;
}

function checkNumber(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    invalid(`${name} must be an integer from ${min} to ${max}`, value);
  }
  return value;
}

function checkFeature<Kind extends 'sync' | 'storage'>(
  value: unknown,
  kind: Kind,
  factory: string,
): BillingFeature<Kind> | undefined {
  if (value === undefined) return undefined;
  const feature = value as Partial<BillingFeature> | null;
  if (feature?.kind !== kind || typeof feature.install !== 'function') {
    invalid(`${kind} must be made by ${factory}`, value);
  }
  return value as BillingFeature<Kind>;
}

function checkCallback<T>(value: T | undefined, name: string): T | undefined {
  if (value !== undefined && typeof value !== 'function') invalid(`${name} must be a function`, value);
  return value;
}

function checkScope(scope: unknown, appKey: string): string {
  if (scope === undefined) return `generator_${appKey}`;
  if (typeof scope !== 'string' || scope === '' || scope.length > 200) {
    invalid('scope must be a string of 1 to 200 characters', scope);
  }
  return scope;
}

function checkDevtools(devtools: unknown): DevtoolsHook | undefined {
  if (devtools !== undefined && typeof (devtools as Partial<DevtoolsHook> | null)?.connect !== 'function') {
    invalid('devtools must be made by reduxDevtools()');
  }
  return devtools as DevtoolsHook | undefined;
}

/** Throws `invalid_argument` for anything `createClient` cannot work with. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) invalid('createClient needs an options object', options);
  checkOptionNames(options, Object.keys(OPTION_NAMES), 'option');
  const { appKey, fetch } = options;
  if (typeof appKey !== 'string' || appKey === '') invalid('appKey must be a non-empty string', appKey);
  // A lone surrogate cannot be URL-encoded: refuse it here, not as a URIError at the first request.
  if (LONE_SURROGATE.test(appKey)) invalid('appKey must be well-formed Unicode');
  if (fetch !== undefined && typeof fetch !== 'function') invalid('fetch must be a function', fetch);
  return {
    baseUrl: checkBaseUrl(options.baseUrl),
    appKey,
    headers: checkHeaders(options.headers),
    fetch,
    scheduler: checkScheduler(options.scheduler),
    timeoutMs: checkNumber(options.timeoutMs, 'timeoutMs', 10_000, 1, 600_000),
    retries: checkNumber(options.retries, 'retries', 2, 0, 10),
    storage: checkFeature(options.storage, 'storage', 'reloadSafe(storage)'),
    sync: checkFeature(options.sync, 'sync', 'tabSync()'),
    scope: checkScope(options.scope, appKey),
    refetch: checkRefetch(options.refetch),
    onEvent: checkCallback(options.onEvent, 'onEvent'),
    onUnauthorized: checkCallback(options.onUnauthorized, 'onUnauthorized'),
    bootstrap: checkSnapshot(options.bootstrap),
    devtools: checkDevtools(options.devtools),
  };
}
