// The hooks the store calls, and the only things it knows of features: lib/features/feature.ts
// builds the public feature protocol on them, so the store imports nothing from features/.
import type { Observable } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import type { BillingEvent } from '../shared/billing-event';
import type { RecoveredConsume } from '../shared/feature-types';
import type { RetryNotice } from '../transport/config';
import type { Effect } from './effect';

/**
 * The cross-tab consume lock, as data: once held, it answers how to let it go
 * and the POSTs to send again under it: those announced by pages that are
 * gone, unanswered, and not reported by a page still alive. Rejects if
 * `signal` aborts first, or on its own deadline.
 */
export type ConsumeLock = (signal: AbortSignal) => Promise<HeldLock>;

/** What the consume lock answers once held. */
export interface HeldLock {
  readonly release: () => void;
  /** External ids of POSTs dead pages left unanswered, for the holder to send again. */
  readonly orphans: readonly string[];
}

/** Consumes whose POST was sent but whose answer has not been seen, kept across reloads. */
export interface ConsumeJournal {
  /** Written before the POST goes out. */
  add(externalId: string): void;
  /** Cleared once the outcome was delivered to the caller (or to `recovered$`). */
  remove(externalId: string): void;
  /**
   * Left over by a page (or client) no longer alive, and not reported by a page still alive, claimed by
   * this one: to replay with the same `external_id`. May wait on a lock to learn which pages are alive;
   * once `signal` aborts (dispose) it claims nothing.
   */
  pending(signal: AbortSignal): Promise<readonly string[]>;
}

/**
 * A page marks each id it reported on `recovered$` for as long as it lives; a page about to replay an id
 * another living page marked drops it: that outcome was reported (contract decision 13).
 */
export interface ReportMarks {
  /** Holds the mark of `externalId` until the function returned is called (dispose). */
  hold(externalId: string): () => void;
  /** Whether a page holds the mark of `externalId` now. */
  held(externalId: string): Promise<boolean>;
}

/** The one `recovered$` of a client (`store/recovery.ts`), and where each replay's outcome is reported. */
export interface Recovery {
  readonly recovered$: Observable<RecoveredConsume>;
  /** Aborts on dispose: the start's replays wait for nothing more. */
  readonly signal: AbortSignal;
  report(recovered: RecoveredConsume): void;
  /** No more can come: `recovered$` completes. */
  complete(): void;
  /** The page goes: `recovered$` completes, its page lock and the marks of what it reported are let go. */
  dispose(): void;
}

/** What one installed feature adds to the store; each part is absent by default. */
export interface StoreHooks {
  /** Effects: facts in, facts out, subscribed at creation and cut on dispose. */
  readonly effects?: readonly Effect[];
  /**
   * Holds this page's alive lock (`unified-billing:<scope>:page:<page id>`) until the function returned
   * is called: the store holds the first one offered for its life, so a page holds one, whatever the features.
   */
  readonly holdPageLock?: () => () => void;
  /**
   * Makes the client's `recovered$` (`recovery()` of `store/recovery.ts`); brought by the features that find
   * unanswered POSTs (reload safety, tab sync), so an app without them does not carry it.
   */
  readonly recovery?: (hooks: readonly StoreHooks[]) => Recovery;
  /** The marks of what pages reported (contract decision 13); the first feature that has them wins. */
  readonly reportMarks?: ReportMarks;
  /** Taken around a consume's POST (tab sync); the first feature that has one wins. */
  readonly consumeLock?: ConsumeLock;
  /** Journals consumes across reloads (reload safety); the first feature that has one wins. */
  readonly journal?: ConsumeJournal;
  /** Sees each applied fact with the states around it, synchronously, before any effect. */
  readonly observe?: (action: BillingAction, before: BillingState, after: BillingState) => void;
  /** Hears each outcome reported on `recovered$` (the events feature). */
  readonly onRecovered?: (recovered: RecoveredConsume) => void;
  /** Becomes `billing.events$`; without it, `events$` never emits and says so once in development. */
  readonly events$?: Observable<BillingEvent>;
  /**
   * The transport retries a request (the client wires it, as the transport is made before the store); the
   * first feature that has one wins (the events feature is the one that does).
   */
  readonly onRetry?: (retry: RetryNotice) => void;
  /** On `dispose()`, after the pending calls settled and the effects were cut. */
  readonly dispose?: () => void;
}

/** The part `key` of the first installed feature that has one: where two features could give it, the first wins. */
export const firstHook = <K extends keyof StoreHooks>(hooks: readonly StoreHooks[], key: K): StoreHooks[K] =>
  hooks.find((hook) => hook[key])?.[key];
