// The hooks the store calls, and the only things it knows of features: lib/features/feature.ts
// builds the public feature protocol on them, so the store imports nothing from features/.
import type { Observable, Subscription } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { BillingState } from '../core/state';
import type { BillingEvent } from '../shared/billing-event';
import type { RecoveredConsume } from '../shared/feature-types';
import type { RetryNotice } from '../transport/config';
import type { ConsumeContext } from './consume-call';
import type { Effect } from './effect';

/**
 * The one replay path, for a consume another page sent and never heard back
 * from (a page reloaded, a tab that died): the consume's own steps after the
 * lock (journal, POST with the same `external_id`, apply the answer), run
 * while the consume lock is held. A learned outcome is reported once, on this
 * page's `recovered$`, and resolves `true`; a POST that threw (the network,
 * `signal`) reports nothing and resolves `false`. Never rejects.
 */
export type Replay = (externalId: string, signal: AbortSignal) => Promise<boolean>;

/**
 * Holds the cross-tab consume lock. Resolves once held, after what a feature
 * does under it (a dead tab's POST sent again through `replay`, another tab's
 * free period learned) is in the store; the function it gives releases the
 * lock. Rejects if `signal` aborts first, or on its own deadline.
 */
export type ConsumeLock = (signal: AbortSignal, replay: Replay) => Promise<() => void>;

/** Consumes whose POST was sent but whose answer has not been seen, kept across reloads. */
export interface ConsumeJournal {
  /** Written before the POST goes out. */
  add(externalId: string): void;
  /** Cleared once the outcome was delivered to the caller (or to `recovered$`). */
  remove(externalId: string): void;
  /**
   * Left over by a page (or client) no longer alive, claimed by this one: to
   * replay with the same `external_id`. May wait on a lock to learn which
   * pages are alive; once `signal` aborts (dispose) it claims nothing.
   */
  pending(signal: AbortSignal): Promise<readonly string[]>;
}

/** The one recovery of a client (`store/recovery.ts`): its page lock, its replays, and `recovered$`. */
export interface Recovery {
  readonly recovered$: Observable<RecoveredConsume>;
  /** The consume lock's {@link Replay}: a consume another page left, sent while the lock is held, and reported. */
  readonly replay: Replay;
  /**
   * Holds the page lock, and replays what the journal names as left by a page that is gone. Unsubscribed
   * on dispose, once every call was settled (and so reported): it also completes `recovered$`.
   */
  start(context: ConsumeContext): Subscription;
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
   * Makes the client's one recovery (`recovery()` of `store/recovery.ts`); brought by the features that find
   * unanswered POSTs (reload safety, tab sync), so an app without them does not carry it.
   */
  readonly recovery?: (hooks: readonly StoreHooks[]) => Recovery;
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
