import type { SchedulerLike } from 'rxjs';
import { consumeSettled } from '../core/actions';
import { inFreePeriod } from '../core/decide';
import type { BillingState } from '../core/state';
import { deadline, deferred } from '../shared/deadline';
import { BillingError } from '../shared/errors';
import type { BillingConsumeResult, ConsumeOutcome } from '../shared/types';
import { BACKEND_CODES } from '../shared/wire';
import type { Flight } from './flight';
import type { LoadContext } from './usage';

/** What a consume uses of its client: the transport and the store (`LoadContext`), and these. */
export interface ConsumeContext extends LoadContext {
  readonly scheduler: SchedulerLike;
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
}

/** One consume: what it learns on the way, and how its caller is settled. */
interface ConsumeCall {
  /** Given by the caller or replayed; made only when a POST goes out. */
  externalId: string | undefined;
  readonly replay: boolean;
  /** Aborts this consume's own work: its lock wait, its POST, its balance refresh. */
  readonly signal: AbortSignal;
  /**
   * Its POST: not sent; sent (journaled) with no answer fact closing it yet, which a blacklist does not;
   * refused (20101); charged, and from then on the call can only succeed.
   */
  post: 'none' | 'sent' | 'refused' | 'charged';
  /** What the backend answered, a result or a refusal; once ended, the error the caller got. */
  result?: BillingConsumeResult;
  error?: BillingError;
  /** Settles the caller once: with what the backend answered, else with `failure` (an abort, `dispose()`). */
  end(failure?: unknown): void;
  /** Ends the call with `error` and aborts its work (the caller's abort, `dispose()`). */
  stop(error: BillingError): void;
  readonly outcome: Promise<BillingConsumeResult>;
}

/** The result of a consume the backend is not asked about (a free period) or that charged nothing. */
export const unchargedResult = (state: BillingState, isBlacklisted = false): BillingConsumeResult => ({
  freeRemaining: state.quota?.freeRemaining ?? 0,
  isCredit: false,
  isBlacklisted,
});

// A call, registered so that dispose() stops it; its work stops too when `follow` aborts.
function newCall(context: ConsumeContext, start: ConsumeStart, follow?: AbortSignal): ConsumeCall {
  const controller = new AbortController();
  const outcome = deferred<BillingConsumeResult>();
  // Not every call awaits it (one aborted before its turn, a replay under the lock): no unhandled rejection.
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
        call.error = error;
      }
      const charged = post === 'charged';
      context.dispatch(
        consumeSettled({ externalId: externalId ?? null, result, error, charged, unanswered: post === 'sent' }),
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
  follow?.addEventListener('abort', () => controller.abort(), { once: true });
  return call;
}

// Steps 5 to 7 of a consume, the one replay path too: journal the id, POST it, apply the answer as facts.
async function sendConsume(context: ConsumeContext, call: ConsumeCall, externalId: string): Promise<boolean> {
  const { dispatch, now, nextRequestNumber } = context;
  context.journal?.add(externalId);
  dispatch({ type: 'consume/sent', externalId });
  call.post = 'sent';
  let seq = 0;
  const reply = await context.api.consume(externalId, {
    signal: call.signal,
    onSend: () => (seq = nextRequestNumber()),
  });
  if (reply.kind === 'blacklisted') {
    call.result = unchargedResult(context.state(), true);
    return false;
  }
  if (reply.kind === 'insufficient') {
    call.post = 'refused';
    const backendCode = BACKEND_CODES.insufficient;
    call.error = new BillingError('insufficient_credits', 'Not enough credits', { backendCode });
    dispatch({ type: 'consume/insufficient', seq });
    return true;
  }
  const { freeRemaining, isCredit } = reply;
  call.post = 'charged';
  call.result = { freeRemaining, isCredit, isBlacklisted: false };
  dispatch({ type: 'consume/charged', seq, now: now(), freeRemaining, isCredit });
  return isCredit;
}

/**
 * Steps 2 to 10 of a consume, in the order of the spec, once its turn came
 * (step 1): take the cross-tab lock if the local state does not make it free;
 * decide; make the id; journal it; POST; apply the answer (facts for the
 * reducer); release the lock; refresh the balance after a credit charge or a
 * refusal; settle the caller. Never rejects.
 */
async function runConsume(context: ConsumeContext, call: ConsumeCall): Promise<void> {
  const { consumeLock } = context;
  const { signal } = call;
  const free = () => !call.replay && inFreePeriod(context.state(), context.now());
  let refresh = false;
  let failure: unknown;
  try {
    if (signal.aborted) return;
    // 2. The lock, only when the local state would send a POST (under it, a feature may replay a dead tab's POST).
    const release = consumeLock && !free() ? await consumeLock(signal) : undefined;
    try {
      // 3. Decide (again under the lock: another tab's charge may have started a free period).
      if (signal.aborted) return;
      if (free()) {
        call.result = unchargedResult(context.state());
        return;
      }
      // 4. The id, made only for a POST; 5 to 7 in sendConsume.
      refresh = await sendConsume(context, call, (call.externalId ??= context.newId()));
    } finally {
      // 8. The lock goes right after the answer is in the store.
      release?.();
    }
    // 9. The balance, so the cache tells the truth (a failure shows in the status, never fails the consume):
    // one sent now, beside any older one in flight, which may be stale and which the click must not wait for.
    if (refresh) await context.balance.join({ signal, fresh: 'now' }).catch(() => undefined);
  } catch (error) {
    failure = error;
  } finally {
    // 10. The caller.
    call.end(failure);
  }
}

/**
 * Starts one `consume()` that goes past the engine's free-period shortcut: its
 * call, settled once by whoever comes first (the consume, the caller's abort,
 * `dispose()`), then {@link runConsume} in its turn. Until the backend has
 * answered, an abort fails the call; after, the answer stands.
 */
export function startConsume(context: ConsumeContext, start: ConsumeStart): Promise<BillingConsumeResult> {
  // Its own controller: nothing another consume does aborts this one (issue 17).
  const call = newCall(context, start);
  return deadline(
    () => {
      // 1. Its turn: one at a time, in call order.
      context.tail = context.tail.then(() => runConsume(context, call));
      return call.outcome;
    },
    {
      scheduler: context.scheduler,
      signal: start.signal,
      onAbort: () => {
        call.stop(new BillingError('aborted', 'consume() was aborted'));
        if (call.result) return call.result;
        throw call.error;
      },
    },
  );
}

/**
 * The replay path while the consume lock is held (a dead tab's POST, sent
 * again by the holder): the consume's own steps after the lock, settled and
 * reported through `onOutcome` like a replay after a reload. Resolves whether
 * the answer came: a POST that threw (the network, the lock's deadline) or a
 * dispose before the answer reports nothing, and the id is the caller's to
 * send again.
 */
export async function replayUnderLock(
  context: ConsumeContext,
  externalId: string,
  signal: AbortSignal,
  onOutcome: (outcome: ConsumeOutcome) => void,
): Promise<boolean> {
  // What the backend answered is reported: a result (charged, blacklisted), even when dispose() ended the call
  // before this resumes, or a refusal.
  const report = (outcome: ConsumeOutcome) =>
    (outcome.ok || outcome.error.code === 'insufficient_credits') && onOutcome(outcome);
  const call = newCall(context, { externalId, onOutcome: report }, signal);
  let failure: unknown;
  try {
    await sendConsume(context, call, externalId);
  } catch (error) {
    failure = error;
  }
  call.end(failure);
  return failure === undefined;
}
