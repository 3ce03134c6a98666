import type { Observable, SchedulerLike, Subscription } from 'rxjs';
import type { RecoveredConsume } from '../shared/feature-types';
import type { BillingConsumeResult } from '../shared/types';
import type { Effect } from '../store/effect';
import type { BillingApi } from '../transport/billing-api';

/**
 * What a feature may use of its client under the consume lock: the transport,
 * to send again the POST of a tab that died before its answer (same
 * `external_id`, so the backend charges it at most once), and the numbering
 * of requests, so that its answer is ordered like any other.
 */
export interface Sender {
  readonly api: Pick<BillingApi, 'consume'>;
  readonly stamp: () => number;
}

/**
 * Holds the cross-tab consume lock. Resolves once held, after the facts learned
 * under it (another tab's free period, a dead tab's POST sent again through
 * `sender`) are already in the store; the function it gives releases the lock.
 * Rejects if `signal` aborts first.
 */
export type Exclusive = (signal: AbortSignal, sender: Sender) => Promise<() => void>;

/** Consumes whose POST was sent but whose answer has not been seen, kept across reloads. */
export interface ConsumeJournal {
  /** Written before the POST goes out. */
  add(externalId: string): void;
  /** Cleared once the outcome was delivered to the caller. */
  remove(externalId: string): void;
  /**
   * Left over by a page (or client) no longer alive: to replay with the same
   * `external_id`. Emits once, then completes; it may wait a short, capped
   * while on the scheduler to learn which pages are alive.
   */
  pending(): Observable<readonly string[]>;
}

/**
 * Replays consumes an earlier page left unanswered, with the same ids, and
 * tells their outcomes on `recovered$` (then completes).
 */
export interface Recovery {
  readonly recovered$: Observable<RecoveredConsume>;
  /** Sends each leftover consume through `submit`; what it returns is cut on dispose. */
  start(submit: (externalId: string) => Promise<BillingConsumeResult>): Subscription;
  /** On dispose: completes now, or once the replays just settled have reported. */
  stop(): void;
}

/** What an opt-in feature adds to the engine; each part is absent by default. */
export interface FeatureParts {
  /** Effects like the engine's own, merged with them. */
  readonly effects?: readonly Effect[];
  readonly exclusive?: Exclusive;
  readonly journal?: ConsumeJournal;
  readonly recovery?: Recovery;
}

/** What an opt-in feature learns of the client it is installed in. */
export interface FeatureSetup {
  /** Names storage keys and the tab channel. */
  readonly scope: string;
  readonly scheduler: SchedulerLike;
  readonly timeoutMs: number;
  readonly retries: number;
  /**
   * Milliseconds on a clock all tabs and reloads of a browser share: the
   * scheduler's own `wallNow()` when it has one, `Date.now` for the default
   * scheduler, else the given scheduler's `now()`.
   */
  readonly wallNow: () => number;
  /** This client's id, one per page instance, shared by its features (locks and storage entries name it). */
  readonly pageId: string;
}

/**
 * An opt-in feature, made by `tabSync()` or `reloadSafe()`. It carries its own
 * code, so a bundle that never calls the factory never contains the feature.
 *
 * @example
 * ```ts
 * const feature: BillingFeature<'sync'> = tabSync();
 * createClient({ baseUrl, appKey: 'poster', sync: feature });
 * ```
 */
export interface BillingFeature<Kind extends 'sync' | 'storage' = 'sync' | 'storage'> {
  readonly kind: Kind;
  /**
   * Called once by `createClient` with the client's scope and clock.
   * @internal
   */
  install(setup: FeatureSetup): FeatureParts;
}
