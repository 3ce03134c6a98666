// The hooks the store calls, and the only things it knows of features: lib/features/feature.ts
// builds the public feature protocol on them, so the store imports nothing from features/.
import type { Observable } from 'rxjs';
import type { BillingEvent } from '../shared/billing-event';
import type { RecoveredConsume } from '../shared/feature-types';
import type { RetryNotice } from '../transport/config';
import type { ConsumeJournal, ConsumeLock, Recovery } from './consume-call';
import type { Effect } from './effect';
import type { Observer } from './store-core';

/** A lock asked for: `granted` tells whether it was granted; `release` lets it go, or withdraws the request. */
export type LockHold = { readonly release: () => void; readonly granted: Promise<boolean> };

/**
 * A page marks each id before it replays it, and holds the mark for as long as it lives; a page about to
 * replay an id another living page marked drops it: that page reports it (contract decision 13).
 */
export interface ReportMarks {
  /**
   * Takes the mark of `externalId` if no page holds it (this one included), until released (dispose);
   * `granted` is false when a page holds it, or the lock manager fails.
   */
  take(externalId: string): LockHold;
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
  readonly observe?: Observer;
  /** Hears each outcome reported on `recovered$` (the events feature). */
  readonly onRecovered?: (recovered: RecoveredConsume) => void;
  /** Becomes `billing.events$`; without it, `events$` never emits and says so once in development. */
  readonly events$?: Observable<BillingEvent>;
  /**
   * The transport retries a request (the client wires it, as the transport is made before the store); the
   * first feature that has one wins (the events feature is the one that does).
   */
  readonly onRetry?: (retry: RetryNotice) => void;
}

/** The part `key` of the first installed feature that has one: where two features could give it, the first wins. */
export const firstHook = <K extends keyof StoreHooks>(hooks: readonly StoreHooks[], key: K): StoreHooks[K] =>
  hooks.find((hook) => hook[key])?.[key];
