import type { ConsumeOrigin } from '../shared/billing-event';
import { deferred } from '../shared/deadline';
import { BillingError } from '../shared/errors';
import type { Observable } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { RecoveredConsume } from '../shared/feature-types';
import type { BillingConsumeResult, ConsumeOptions } from '../shared/types';
import type { Flight } from './flight';
import type { LoadContext } from './usage';

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

/** The one `recovered$` of a client (`store/recovery.ts`), the replays that report on it, and the start's. */
export interface Recovery {
  readonly recovered$: Observable<RecoveredConsume>;
  /**
   * Step 3 of a turn: sends again what the lock answered (`orphans`, dead tabs' POSTs) and, at start (with
   * the start's `signal`), what the journal claims; each one no living page reported, as a call of its own
   * (steps 6 to 8) with no caller, settled like a consume. Whether a balance refresh is due.
   */
  replay(context: ConsumeContext, orphans?: readonly string[], start?: AbortSignal): Promise<boolean>;
  /** Sees each applied fact: a replay's `consume/settled` is its outcome, reported to the listening features and on `recovered$`. */
  observe(action: BillingAction): void;
  /**
   * Holds the page lock and queues the start's turn; the function returned (dispose) completes
   * `recovered$` and lets go of the page lock and the marks of what this page reported.
   */
  start(context: ConsumeContext): () => void;
}

/** What a consume uses of its client: the transport and the store (`LoadContext`), and these. */
export interface ConsumeContext extends LoadContext {
  /** The cross-tab consume lock (tab sync): once held, it answers what gone pages left unanswered. */
  readonly consumeLock: ConsumeLock | undefined;
  /** The reload journal: an entry from before a POST until its caller has the outcome. */
  readonly journal: ConsumeJournal | undefined;
  /** The replays and `recovered$`, brought by the features that find unanswered POSTs. */
  readonly recovery: Recovery | undefined;
  /** Where the next consume waits for its turn: consumes run one at a time, in call order. */
  tail: Promise<void>;
  /** The consumes whose caller is still waiting, each by its `end`, so `dispose()` settles every one. */
  readonly waiting: Set<(error: BillingError) => void>;
  readonly balance: Flight<number>;
  readonly newId: () => string;
  /** Aborted by `dispose()`: its signal is that of every call whose caller gave none, and of the start's turn. */
  readonly disposal: AbortController;
}

/** How a consume starts: the caller's id and signal, and who asked for it (absent: the app). */
export type ConsumeStart = ConsumeOptions & { readonly origin?: ConsumeOrigin };

/** One consume: what it learns on the way, and how its caller is settled. */
export interface ConsumeCall {
  /** Given by the caller or replayed; made only when a POST goes out. */
  externalId: string | undefined;
  /**
   * Aborts this consume's own work: its lock wait, its POST, its balance refresh. Only a caller's signal can
   * end that work early, so only a call given one has a controller of its own; any other call's work ends on
   * `dispose()` (the context's `disposal`), and a charged consume allocates one controller, its attempt's.
   */
  readonly signal: AbortSignal;
  /**
   * Its POST: not sent; sent (and journaled), with no answer fact closing it yet (a blacklist closes none);
   * refused (20101); charged: from then on the call can only succeed.
   */
  post: 'none' | 'sent' | 'refused' | 'charged';
  /** What the backend answered: a result, or a refusal. */
  result?: BillingConsumeResult;
  error?: BillingError;
  /**
   * Settles the caller once: with what the backend answered, else with `failure` (an abort, `dispose()`);
   * then aborts whatever of its work is left, if it has a controller of its own (a turn that succeeded
   * leaves none).
   */
  end(failure?: unknown): void;
  readonly outcome: Promise<BillingConsumeResult>;
}

let calls = 0;

// A call, registered so that dispose() stops it, and started as a fact.
export function newCall(context: ConsumeContext, start: ConsumeStart): ConsumeCall {
  const controller = start.signal && new AbortController();
  // Numbers its facts from `consume/started` to `consume/settled`, so the events tell consumes apart.
  const number = ++calls;
  const outcome = deferred<BillingConsumeResult>();
  const call: ConsumeCall = {
    externalId: start.externalId,
    signal: (controller ?? context.disposal).signal,
    post: 'none',
    outcome: outcome.promise,
    end(failure) {
      if (!context.waiting.delete(call.end)) return;
      const { result = null, externalId, post } = call;
      let error: BillingError | null = null;
      if (!result) {
        const thrown = call.error ?? failure;
        error =
          thrown instanceof BillingError
            ? thrown
            : new BillingError('network', __DEV__ ? 'Unexpected failure of consume' : 'consume failed');
        // The one place a consume's error gets its externalId.
        if (externalId !== undefined && error.externalId === undefined) error = error.withExternalId(externalId);
      }
      context.dispatch({
        type: 'consume/settled',
        call: number,
        externalId: externalId ?? null,
        result,
        error,
        charged: post === 'charged',
        unanswered: post === 'sent',
      });
      // The caller has the outcome (or was told the client is gone): nothing is left to replay. Only this
      // client's own entries are removed: another page's (a shared storage) are not ours.
      if (post !== 'none') context.journal?.remove(externalId as string);
      if (result) outcome.resolve(result);
      else outcome.reject(error);
      controller?.abort();
    },
  };
  context.waiting.add(call.end);
  context.dispatch({ type: 'consume/started', call: number, externalId: start.externalId, origin: start.origin });
  return call;
}
