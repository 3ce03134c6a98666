import { deferred } from '../shared/deadline';
import { BillingError } from '../shared/errors';
import type { SchedulerLike } from 'rxjs';
import type { BillingConsumeResult, ConsumeOutcome } from '../shared/types';
import type { Flight } from './flight';
import type { LoadContext } from './usage';

/** What the features add around a consume's POST; each absent without its feature. */
export interface ConsumeHooks {
  /** The cross-tab consume lock (tab sync), given the one replay path (`Recovery.replay`). */
  readonly consumeLock: ((signal: AbortSignal) => Promise<() => void>) | undefined;
  /** Records a consume before its POST goes out (reload safety). */
  readonly journal: ((externalId: string) => void) | undefined;
  /** Forgets a journaled consume once its caller has the outcome (only this client's own entries). */
  readonly forget: (externalId: string) => void;
}

/** The consumes of one client: they run one at a time, in call order. */
export interface ConsumeQueue {
  /** Where the next consume waits for its turn. */
  tail: Promise<void>;
  /** The consumes whose caller is still waiting, each by its `stop`, so `dispose()` settles every one. */
  readonly waiting: Set<(error: BillingError) => void>;
}

/** What a consume uses of its client: the transport and the store (`LoadContext`), and these. */
export interface ConsumeContext extends LoadContext {
  readonly scheduler: SchedulerLike;
  readonly hooks: ConsumeHooks;
  readonly queue: ConsumeQueue;
  readonly balance: Flight<number>;
  readonly newId: () => string;
}

/** How a consume starts: the caller's id and signal; `onOutcome` marks one an earlier page left (a replay). */
export interface ConsumeStart {
  readonly externalId?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Hears the outcome of a replay (for `recovered$`); a replay always asks the backend, free period or not. */
  readonly onOutcome?: ((outcome: ConsumeOutcome) => void) | undefined;
}

/** One `consume()`: what it learns on the way, and how its caller is settled. */
export interface ConsumeCall {
  /** Given by the caller or replayed; made only when a POST goes out. */
  externalId: string | undefined;
  readonly replay: boolean;
  /** Aborts this consume's own work: its lock wait, its POST, its balance refresh. */
  readonly signal: AbortSignal;
  /** Its POST was sent and no answer fact (a charge, a refusal) closed it yet. */
  unanswered: boolean;
  /** The backend charged: from then on the call can only succeed. */
  charged: boolean;
  /** What the backend answered, a result or a refusal; at the end, the error the caller gets. */
  result?: BillingConsumeResult;
  error?: BillingError;
  /** Settles the caller once: with what the backend answered, else with `failure` (an abort, `dispose()`). */
  end(failure?: unknown): void;
  /** Once ended: the result, or throws the error the caller got. */
  value(): BillingConsumeResult;
  readonly outcome: Promise<BillingConsumeResult>;
}

// A call, registered so that dispose() settles it; its work stops when `follow` aborts or dispose() comes.
export function newCall(context: ConsumeContext, start: ConsumeStart, follow?: AbortSignal): ConsumeCall {
  const { waiting } = context.queue;
  const controller = new AbortController();
  const outcome = deferred<BillingConsumeResult>();
  // Awaited only once the consume ran: a call aborted before it started leaves its rejection to `value()`.
  outcome.promise.catch(() => undefined);
  const stop = (error: BillingError) => {
    call.end(error);
    controller.abort();
  };
  const call: ConsumeCall = {
    externalId: start.externalId,
    replay: start.onOutcome !== undefined,
    signal: controller.signal,
    unanswered: false,
    charged: false,
    outcome: outcome.promise,
    end(failure) {
      if (waiting.delete(stop)) {
        const { result = null, externalId: id, charged, unanswered } = call;
        // The one place a consume's error gets its externalId.
        let error: BillingError | null = null;
        if (!result) {
          const thrown = call.error ?? failure;
          error =
            thrown instanceof BillingError
              ? thrown
              : new BillingError('network', __DEV__ ? 'Unexpected failure of consume' : 'consume failed');
          if (id !== undefined && error.externalId === undefined) error = error.withExternalId(id);
          call.error = error;
        }
        context.store.dispatch({
          type: 'consume/settled',
          externalId: id ?? null,
          result,
          error,
          charged,
          unanswered,
        });
        // The caller has the outcome (or was told the client is gone): nothing is left to replay.
        if (id !== undefined) context.hooks.forget(id);
        start.onOutcome?.(result ? { ok: true, result } : { ok: false, error: error as BillingError });
        if (result) outcome.resolve(result);
        else outcome.reject(error);
      }
    },
    value() {
      if (call.result) return call.result;
      throw call.error;
    },
  };
  waiting.add(stop);
  follow?.addEventListener('abort', () => controller.abort(), { once: true });
  return call;
}
