// The hooks the store calls, and the only things it knows of features: lib/features/feature.ts
// builds the public feature protocol on them, so the store imports nothing from features/.
import type { Observable, Subscription } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import type { BillingEvent } from '../shared/billing-event';
import type { RecoveredConsume } from '../shared/feature-types';
import type { BillingConsumeResult } from '../shared/types';
import type { BillingApi } from '../transport/billing-api';
import type { RetryNotice } from '../transport/config';
import type { Effect } from './effect';

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

/** What one installed feature adds to the store; each part is absent by default. */
export interface StoreHooks {
  /** Effects: facts in, facts out, subscribed at creation and cut on dispose. */
  readonly effects?: readonly Effect[];
  /** Taken around a consume's POST (tab sync); the first feature that has one wins. */
  readonly exclusive?: Exclusive;
  /** Journals consumes across reloads (reload safety); the first feature that has one wins. */
  readonly journal?: ConsumeJournal;
  /** Replays what an earlier page left unanswered; the first feature that has one wins. */
  readonly recovery?: Recovery;
  /** Sees each applied fact with the states around it, synchronously, before any effect. */
  readonly observe?: (action: BillingAction, before: BillingState, after: BillingState) => void;
  /** Becomes `billing.events$`; without it, `events$` never emits and says so once in development. */
  readonly events$?: Observable<BillingEvent>;
  /** The transport retries a request (the client wires it, as the transport is made before the store). */
  readonly onRetry?: (retry: RetryNotice) => void;
  /** On `dispose()`, after the pending calls settled and the effects were cut. */
  readonly dispose?: () => void;
}
