import type { Observable, SchedulerLike } from 'rxjs';
import type { BillingState } from '../core/state';
import type { EngineAction } from './engine-actions';

/** What a plugin effect sees of the engine: the action stream, the state, the clock. */
export interface PluginContext {
  readonly action$: Observable<EngineAction>;
  readonly state$: Observable<BillingState>;
  readonly store: { readonly state: BillingState };
  readonly scheduler: SchedulerLike;
}

/**
 * An effect added by an opt-in feature (tab sync, storage). What it emits is
 * dispatched; it is unsubscribed on dispose, which is where it frees its handles.
 */
export type EnginePlugin = (context: PluginContext) => Observable<EngineAction>;

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

/** The opt-in features the engine is built with; all absent by default. */
export interface EngineExtensions {
  readonly plugins?: readonly EnginePlugin[];
  /** Runs a consume's decide-and-POST step while this tab holds the cross-tab consume lock. */
  readonly exclusive?: <T>(work$: Observable<T>) => Observable<T>;
  readonly journal?: ConsumeJournal;
}

/** What an opt-in feature learns of the client it is installed in. */
export interface FeatureSetup {
  /** Names storage keys and the tab channel. */
  readonly scope: string;
  readonly scheduler: SchedulerLike;
  readonly timeoutMs: number;
  readonly retries: number;
  /**
   * Milliseconds on a clock all tabs and reloads of a browser share: `Date.now`
   * by default, the `scheduler`'s own clock when the user gave one.
   */
  readonly wallNow: () => number;
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
  install(setup: FeatureSetup): EngineExtensions;
}
