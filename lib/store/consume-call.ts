import { consumeSettled } from '../core/actions';
import type { ConsumeOrigin } from '../shared/billing-event';
import { deferred } from '../shared/deadline';
import { BillingError } from '../shared/errors';
import type { BillingConsumeResult, ConsumeOutcome } from '../shared/types';
import type { Flight } from './flight';
import type { LoadContext } from './usage';

/** What a consume uses of its client: the transport and the store (`LoadContext`), and these. */
export interface ConsumeContext extends LoadContext {
  /** The cross-tab consume lock (tab sync), given the one replay path (`Recovery.replay`). */
  readonly consumeLock: ((signal: AbortSignal) => Promise<() => void>) | undefined;
  /** The reload journal (`ConsumeJournal`): an entry from before a POST until its caller has the outcome. */
  readonly journal: { add(externalId: string): void; remove(externalId: string): void } | undefined;
  /** Where the next consume waits for its turn: consumes run one at a time, in call order. */
  tail: Promise<void>;
  /** The consumes whose caller is still waiting, each by its `stop`, so `dispose()` settles every one. */
  readonly waiting: Set<(error: BillingError) => void>;
  readonly balance: Flight<number>;
  readonly newId: () => string;
}

/** How a consume starts: the caller's id and signal; `onOutcome` marks one an earlier page left (a replay). */
export interface ConsumeStart {
  readonly externalId?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Hears the outcome of a replay (for `recovered$`); a replay always asks the backend, free period or not. */
  readonly onOutcome?: ((outcome: ConsumeOutcome) => void) | undefined;
  /** Who started it: absent for the app's own `consume()`; a replay's road otherwise. */
  readonly origin?: ConsumeOrigin | undefined;
}

/** One consume: what it learns on the way, and how its caller is settled. */
export interface ConsumeCall {
  /** Given by the caller or replayed; made only when a POST goes out. */
  externalId: string | undefined;
  readonly replay: boolean;
  /** Aborts this consume's own work: its lock wait, its POST, its balance refresh. */
  readonly signal: AbortSignal;
  /**
   * Its POST: not sent; sent (and journaled), with no answer fact closing it yet (a blacklist closes none);
   * refused (20101); charged: from then on the call can only succeed.
   */
  post: 'none' | 'sent' | 'refused' | 'charged';
  /** What the backend answered: a result, or a refusal. */
  result?: BillingConsumeResult;
  error?: BillingError;
  /** Settles the caller once: with what the backend answered, else with `failure` (an abort, `dispose()`). */
  end(failure?: unknown): void;
  /** Ends the call with `error` and aborts its work (the caller's abort, `dispose()`). */
  stop(error: BillingError): void;
  readonly outcome: Promise<BillingConsumeResult>;
}

let calls = 0;

// A call, registered so that dispose() stops it and started as a fact; its work stops too when `follow` aborts.
export function newCall(context: ConsumeContext, start: ConsumeStart, follow?: AbortSignal): ConsumeCall {
  const controller = new AbortController();
  // Numbers its facts from `consume/started` to `consume/settled`, so the events tell consumes apart.
  const number = ++calls;
  const outcome = deferred<BillingConsumeResult>();
  // A replay under the lock never awaits it: no unhandled rejection.
  outcome.promise.catch(() => undefined);
  const call: ConsumeCall = {
    externalId: start.externalId,
    replay: start.onOutcome !== undefined,
    signal: controller.signal,
    post: 'none',
    outcome: outcome.promise,
    end(failure) {
      if (!context.waiting.delete(call.stop)) return;
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
      const charged = post === 'charged';
      context.dispatch(
        consumeSettled({
          call: number,
          externalId: externalId ?? null,
          result,
          error,
          charged,
          unanswered: post === 'sent',
        }),
      );
      // The caller has the outcome (or was told the client is gone): nothing is left to replay. Only this
      // client's own entries are removed: another page's (a shared storage) are not ours.
      if (post !== 'none') context.journal?.remove(externalId as string);
      start.onOutcome?.(result ? { ok: true, result } : { ok: false, error: error as BillingError });
      if (result) outcome.resolve(result);
      else outcome.reject(error);
    },
    stop(error) {
      call.end(error);
      controller.abort();
    },
  };
  context.waiting.add(call.stop);
  context.dispatch({ type: 'consume/started', call: number, externalId: start.externalId, origin: start.origin });
  follow?.addEventListener('abort', () => controller.abort(), { once: true });
  return call;
}
