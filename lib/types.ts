import type { Observable, SchedulerLike } from 'rxjs';
import type { BillingFeature } from './engine/extensions';
import type { RecoveredConsume } from './feature-types';

export type { LocksLike, RecoveredConsume, ReloadSafeOptions, StorageLike, SyncOptions } from './feature-types';

/**
 * The quota as the spec's `UsageInfo`: what `getUsage()` resolves to, what
 * `getCachedUsage()` returns and what `onChange` / `usage$` deliver.
 *
 * @example
 * ```ts
 * const usage: UsageInfo = await client.billing.getUsage();
 * console.log(`${usage.freeRemaining}/${usage.freeTotal} free uses left`);
 * ```
 */
export interface UsageInfo {
  /** `is_enabled` of the free-quota response, reported as received. */
  readonly isEnabled: boolean;
  readonly freeRemaining: number;
  readonly freeTotal: number;
  readonly creditsPerUse: number;
  readonly creditsBalance: number;
  readonly inFreePeriod: boolean;
  /** Whole seconds left in the free period (`ceil`), 0 when none is active. */
  readonly freePeriodRemaining: number;
}

/**
 * Why an operation may (or may not) proceed, in the spec's decision order.
 *
 * @example
 * ```ts
 * const reason: BillingReason = client.billing.check().reason;
 * ```
 */
export type BillingReason = 'free_period' | 'free_count' | 'credits' | 'insufficient';

/**
 * Result of the synchronous `check()`; `canProceed` is false only for `insufficient`.
 *
 * @example
 * ```ts
 * const { canProceed, reason } = client.billing.check();
 * if (!canProceed) showTopUpDialog(reason);
 * ```
 */
export type BillingCheckResult =
  | { readonly canProceed: true; readonly reason: 'free_period' | 'free_count' | 'credits' }
  | { readonly canProceed: false; readonly reason: 'insufficient' };

/**
 * Options of `consume()`.
 *
 * @example
 * ```ts
 * // One id per user action, made when the user clicks; reuse it only to retry this action.
 * const options: ConsumeOptions = { externalId: crypto.randomUUID(), signal: AbortSignal.timeout(5000) };
 * await client.billing.consume(options);
 * ```
 */
export interface ConsumeOptions {
  /**
   * Idempotency key of one user action, 1 to 255 characters; a fresh UUID when
   * omitted. Reuse it only to retry that same action: the backend replays its
   * first answer and charges nothing more, and the client starts a new free
   * period on the replay. Never derive it from what is exported (a document id).
   */
  readonly externalId?: string;
  /** Aborts the call; see docs/decisions.md for what an abort means once the POST is sent. */
  readonly signal?: AbortSignal;
}

/**
 * Options of `getUsage()`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const usage = client.billing.getUsage({ signal: controller.signal });
 * ```
 */
export interface GetUsageOptions {
  readonly signal?: AbortSignal;
}

/**
 * Result of `consume()`.
 *
 * @example
 * ```ts
 * const result: BillingConsumeResult = await client.billing.consume();
 * if (result.isBlacklisted) warn('Your account is restricted');
 * ```
 */
export interface BillingConsumeResult {
  readonly freeRemaining: number;
  /** True when this call actually deducted credits. */
  readonly isCredit: boolean;
  /** True when the backend answered 20102; nothing was charged. */
  readonly isBlacklisted: boolean;
}

/**
 * Headers added to every request: a record or a `Headers`, or a function
 * (sync or async) giving one, called before each attempt, so a refreshed token
 * is picked up by retries. Names and values fetch would refuse (CR, LF, NUL,
 * characters beyond Latin-1) are `invalid_argument` and sent nowhere; a
 * function that does not settle within `timeoutMs` fails the attempt `timeout`.
 *
 * @example
 * ```ts
 * const headers: HeadersOption = async () => ({ Authorization: `Bearer ${await auth.token()}` });
 * ```
 */
export type HeadersOption = HeadersValue | (() => HeadersValue | Promise<HeadersValue>);

/**
 * What the `headers` option gives: a record of strings or a `Headers`.
 *
 * @example
 * ```ts
 * const headers: HeadersValue = new Headers({ Authorization: 'Bearer <token>' });
 * ```
 */
export type HeadersValue = Readonly<Record<string, string>> | Headers;

/**
 * The fetch function the transport calls; `cross-fetch` by default.
 *
 * @example
 * ```ts
 * const fetchFn: FetchLike = (url, init) => fetch(url, init);
 * ```
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

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
   * The function every request goes through; `cross-fetch` by default. It must
   * honour `init.signal`: timeouts and `dispose()` abort through it.
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
}

/**
 * The billing module of the spec (`sdk.billing`), plus its observable views.
 *
 * @example
 * ```ts
 * const { billing } = createClient({ baseUrl, appKey: 'poster' });
 * await billing.getUsage();
 * if (billing.check().canProceed) await billing.consume();
 * ```
 */
export interface BillingModule {
  /** Fetches the quota (two GETs in parallel) and caches it. */
  getUsage(options?: GetUsageOptions): Promise<UsageInfo>;
  /** The cached quota, `null` before the first successful fetch. No request. */
  getCachedUsage(): UsageInfo | null;
  /** Synchronous decision from the cache; never charges, never requests. */
  check(): BillingCheckResult;
  /** Consumes one use: free period, else the backend charges free quota or credits. */
  consume(options?: ConsumeOptions): Promise<BillingConsumeResult>;
  /** Refreshes the cached credits balance. */
  refreshCredits(): Promise<void>;
  /** Calls back on every quota change (not on registration); returns the unsubscribe function. */
  onChange(callback: (usage: UsageInfo) => void): () => void;
  /** Latest `UsageInfo` replayed to each subscriber, then every change. */
  readonly usage$: Observable<UsageInfo>;
  /** Whole seconds left in the free period, once a second, then 0. */
  readonly freePeriodRemaining$: Observable<number>;
  /**
   * Outcomes of consumes replayed from the `storage` journal at start, then
   * completes; completes at once without `storage` or when nothing was pending.
   */
  readonly recovered$: Observable<RecoveredConsume>;
  /** Cancels timers and requests, completes the observables; later calls fail with `disposed`. */
  dispose(): void;
}

/**
 * The credits module: the balance operation `getUsage()` and `refreshCredits()` reuse.
 *
 * @example
 * ```ts
 * const balance: number = await client.credits.getBalance();
 * ```
 */
export interface CreditsModule {
  /** The credits balance call (`GET /ai/v1/credit/getBalance`); concurrent calls share one request. */
  getBalance(): Promise<number>;
}

/**
 * What `createClient()` returns.
 *
 * @example
 * ```ts
 * const client: Client = createClient({ baseUrl, appKey: 'poster' });
 * client.billing.usage$.subscribe(render);
 * ```
 */
export interface Client {
  readonly billing: BillingModule;
  readonly credits: CreditsModule;
}
