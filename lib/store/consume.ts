import { inFreePeriod } from '../core/decide';
import type { BillingState } from '../core/state';
import { deadline } from '../shared/deadline';
import { BillingError } from '../shared/errors';
import type { BillingConsumeResult, ConsumeOutcome } from '../shared/types';
import { BACKEND_CODES } from '../shared/wire';
import { newCall, type ConsumeCall, type ConsumeContext, type ConsumeStart } from './consume-call';

export type { ConsumeContext } from './consume-call';

/** The result of a consume the backend is not asked about (a free period) or that charged nothing. */
export const unchargedResult = (state: BillingState, isBlacklisted = false): BillingConsumeResult => ({
  freeRemaining: state.quota?.freeRemaining ?? 0,
  isCredit: false,
  isBlacklisted,
});

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
  const { signal } = call;
  const free = () => !call.replay && inFreePeriod(context.state(), context.now());
  let refresh = false;
  let failure: unknown;
  try {
    // 2. The lock, only when the local state would send a POST (under it, a feature may replay a dead tab's POST).
    // A call stopped before its turn waits for nothing: the lock refuses an aborted signal at once.
    const release = context.consumeLock && !free() ? await context.consumeLock(signal) : undefined;
    if (release) context.dispatch({ type: 'consume/locked' });
    try {
      // 3. Decide (again under the lock: another tab's charge may have started a free period); a call stopped
      // meanwhile sends nothing.
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
      signal: start.signal,
      onAbort: () => {
        call.stop(new BillingError('aborted', 'consume() was aborted'));
        return call.outcome;
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
  const call = newCall(context, { externalId, onOutcome: report, origin: 'tab' }, signal);
  let failure: unknown;
  try {
    await sendConsume(context, call, externalId);
  } catch (error) {
    failure = error;
  }
  call.end(failure);
  return failure === undefined;
}
