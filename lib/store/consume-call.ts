import { consumeSettled } from '../core/actions';
import { deferred } from '../shared/deadline';
import { BillingError } from '../shared/errors';
import type { RecoveredConsume } from '../shared/feature-types';
import type { BillingConsumeResult } from '../shared/types';
import type { Flight } from './flight';
import type { ConsumeJournal, ConsumeLock, ReportMarks } from './hooks';
import type { LoadContext } from './usage';

/** What a consume uses of its client: the transport and the store (`LoadContext`), and these. */
export interface ConsumeContext extends LoadContext {
  /** The cross-tab consume lock (tab sync): once held, it answers what gone pages left unanswered. */
  readonly consumeLock: ConsumeLock | undefined;
  /** The reload journal: an entry from before a POST until its caller has the outcome. */
  readonly journal: ConsumeJournal | undefined;
  /** Which ids a living page already reported (a replay of one is dropped). */
  readonly reportMarks: ReportMarks | undefined;
  /** Where a replay's outcome goes (`recovered$`): a replay has no caller. */
  readonly report: ((recovered: RecoveredConsume) => void) | undefined;
  /** Where the next consume waits for its turn: consumes run one at a time, in call order. */
  tail: Promise<void>;
  /** The consumes whose caller is still waiting, each by its `stop`, so `dispose()` settles every one. */
  readonly waiting: Set<(error: BillingError) => void>;
  readonly balance: Flight<number>;
  readonly newId: () => string;
}

/**
 * Who asked for a consume: the app (`consume()`), or nobody alive, for a POST an earlier page left
 * unanswered: `reload`, replayed from the journal after a reload; `tab`, sent again for a dead tab
 * under the consume lock. A replay always asks the backend, free period or not, and has no caller:
 * its outcome goes to `recovered$`.
 */
export type ConsumeOrigin = 'app' | 'reload' | 'tab';

/** How a consume starts: the caller's id and signal, and who asked for it (absent: the app). */
export interface ConsumeStart {
  readonly externalId?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly origin?: ConsumeOrigin | undefined;
}

/** One consume: what it learns on the way, and how its caller is settled. */
export interface ConsumeCall {
  /** Given by the caller or replayed; made only when a POST goes out. */
  externalId: string | undefined;
  readonly origin: ConsumeOrigin;
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

// A call, registered so that dispose() stops it.
export function newCall(context: ConsumeContext, start: ConsumeStart): ConsumeCall {
  const controller = new AbortController();
  const outcome = deferred<BillingConsumeResult>();
  // A replay has no caller to await it: no unhandled rejection.
  outcome.promise.catch(() => undefined);
  const origin = start.origin ?? 'app';
  const call: ConsumeCall = {
    externalId: start.externalId,
    origin,
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
        consumeSettled({ externalId: externalId ?? null, result, error, charged, unanswered: post === 'sent' }),
      );
      // The caller has the outcome (or was told the client is gone): nothing is left to replay. Only this
      // client's own entries are removed: another page's (a shared storage) are not ours.
      if (post !== 'none') context.journal?.remove(externalId as string);
      // A replay's outcome, whatever it is, to `recovered$`: one rule on every road (docs/recipes/reload-safe.md).
      if (origin !== 'app' && externalId !== undefined)
        context.report?.({
          externalId,
          outcome: result ? { ok: true, result } : { ok: false, error: error as BillingError },
        });
      if (result) outcome.resolve(result);
      else outcome.reject(error);
    },
    stop(error) {
      call.end(error);
      controller.abort();
    },
  };
  context.waiting.add(call.stop);
  return call;
}
