import type { SchedulerLike } from 'rxjs';
import type { BillingFeature } from '../features/feature';
import type { DevtoolsHook } from '../features/devtools-hook';
import type { BillingSnapshot } from '../core/snapshot';
import type { FetchLike, HeadersOption } from '../shared/types';

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
   * The function every request goes through: by default the global
   * `fetch`, read at each request (browsers, Node 18+, React Native). It must honour
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
   * is the usual choice). Off by default.
   *
   * @see {@link https://cdn.jsdelivr.net/npm/unified-billing@0.2.0/docs/recipes/reload-safe.md | docs/recipes/reload-safe.md}
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
   * Refetches usage by itself (`refetchOn({ focus, online, intervalMs })`). Off
   * by default: nothing is listened to or armed, and none of its code is bundled.
   * The object of 0.1 fails to compile naming `refetchOn()` ({@link RefetchTakesRefetchOn}).
   */
  readonly refetch?: BillingFeature<'refetch'> | RefetchTakesRefetchOn;
  /**
   * `billing.events$` and an `onEvent` listener (`billingEvents({ onEvent })`).
   * Off by default: `events$` then never emits, and none of its code is bundled.
   */
  readonly events?: BillingFeature<'events'>;
  /**
   * Removed in 0.2.0: throws `invalid_argument`. Write `events: billingEvents({ onEvent })`.
   * Typed as that sentence, so that `tsc`'s error for a listener quotes it.
   * @deprecated Use `events: billingEvents({ onEvent })`.
   */
  readonly onEvent?: 'since 0.2.0: write events: billingEvents({ onEvent })';
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

/**
 * The `refetch` object of 0.1, kept in the type only so that `tsc` names the
 * new way: each field's type is the sentence its error quotes (`Type 'true' is
 * not assignable to type '"since 0.2.0: write refetch: refetchOn({ focus })"'`),
 * and an object without them misses the one required member, whose name says
 * it. `createClient` throws `invalid_argument` for it, suggesting the
 * `refetchOn({...})` call that does what the object asked for.
 *
 * @deprecated Write `refetch: refetchOn({ focus, online, intervalMs })`.
 * @example
 * ```ts
 * // 0.1, refused by tsc and at run time:
 * // createClient({ baseUrl, appKey: 'poster', refetch: { onFocus: true, intervalMs: 60_000 } });
 * createClient({ baseUrl, appKey: 'poster', refetch: refetchOn({ focus: true, intervalMs: 60_000 }) });
 * ```
 */
export interface RefetchTakesRefetchOn {
  /** @deprecated Write `refetch: refetchOn({ focus })`. */
  readonly onFocus?: 'since 0.2.0: write refetch: refetchOn({ focus })';
  /** @deprecated Write `refetch: refetchOn({ online })`. */
  readonly onOnline?: 'since 0.2.0: write refetch: refetchOn({ online })';
  /** @deprecated Write `refetch: refetchOn({ intervalMs })`. */
  readonly intervalMs?: 'since 0.2.0: write refetch: refetchOn({ intervalMs })';
  /** Never present: makes any plain object fail, with this name in the error. */
  readonly 'since 0.2.0: write refetch: refetchOn({ focus, online, intervalMs })': never;
  /** So that `refetch?.kind` reads on the union. */
  readonly kind?: never;
}
