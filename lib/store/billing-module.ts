import type { Observable, SchedulerLike } from 'rxjs';
import type { BillingPreview } from '../core/preview';
import type { BillingEvent } from '../shared/billing-event';
import type { RecoveredConsume } from '../shared/feature-types';
import type { BillingSnapshot } from '../core/snapshot';
import type { BillingApi } from '../transport/billing-api';
import type { StoreHooks } from './hooks';
import type { BillingStatus } from '../shared/billing-status';
import type {
  BillingCheckResult,
  BillingConsumeResult,
  ConsumeOptions,
  GetUsageOptions,
  UsageInfo,
} from '../shared/types';

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
   * Outcomes of consumes another page left unanswered, each reported once by
   * the page that learns it: replayed from the `storage` journal at start, or
   * sent again for a tab that died (`sync` with Web Locks). Completes once no
   * more can come: after the start's replays, or on `dispose()` with `sync`.
   */
  readonly recovered$: Observable<RecoveredConsume>;
  /**
   * Whether usage is loaded, loading, when it was fetched, how many consumes
   * await an answer, and the last error: render "loading" rather than a
   * refusal while `loaded` is false.
   */
  getStatus(): BillingStatus;
  /** The status, replayed to each subscriber, then every change. */
  readonly status$: Observable<BillingStatus>;
  /**
   * Every {@link BillingEvent} from subscription on (hot), with the events
   * feature installed (`events: billingEvents()`); building them costs nothing
   * while nobody listens. Without it, it never emits, completes on `dispose()`,
   * and its first subscriber gets a warning in development.
   */
  readonly events$: Observable<BillingEvent>;
  /** What the next consume would cost, from the cache and the same decision as `check()`; no request. */
  preview(): BillingPreview;
  /**
   * The cached usage and free period as plain JSON, for another client's
   * `bootstrap` (a page rendered on the server); `null` before the first
   * answer; after `dispose()`, the last one. Never carries a header value.
   */
  snapshot(): BillingSnapshot | null;
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

/** What a store is built from: the transport, the clocks, an id maker and the installed features' hooks. */
export interface StoreSetup {
  readonly api: BillingApi;
  readonly scheduler: SchedulerLike;
  readonly wallNow: () => number;
  readonly newId: () => string;
  readonly hooks: readonly StoreHooks[];
  readonly bootstrap?: BillingSnapshot | null | undefined;
}

/**
 * What `createClient()` returns: the store's `billing` and `credits` modules, as they are.
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
