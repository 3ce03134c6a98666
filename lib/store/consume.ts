import { inFreePeriod } from '../core/decide';
import type { BillingState } from '../core/state';
import { deadline } from '../shared/deadline';
import { abortedError, BillingError } from '../shared/errors';
import type { BillingConsumeResult } from '../shared/types';
import { BACKEND_CODES } from '../shared/wire';
import { newCall, type ConsumeCall, type ConsumeContext, type ConsumeStart } from './consume-call';

/** The result of a consume the backend is not asked about (a free period) or that charged nothing. */
export const unchargedResult = (state: BillingState, isBlacklisted = false): BillingConsumeResult => ({
  freeRemaining: state.quota?.freeRemaining ?? 0,
  isCredit: false,
  isBlacklisted,
});

// Steps 6 to 8 of a consume, and of every replay: journal the id, POST it, apply the answer as facts.
export async function sendConsume(context: ConsumeContext, call: ConsumeCall, externalId: string): Promise<boolean> {
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
 * Steps 2 to 11 of a turn, in the order of the spec, once it came (step 1):
 * take the cross-tab lock if the local state does not make the consume free;
 * send again what gone pages left unanswered (the lock's answer, and at start
 * the journal's claim); decide; make the id; journal it; POST; apply the
 * answer (facts for the reducer); release the lock; refresh the balance after
 * a credit charge or a refusal; settle the caller. Without a `call`, the
 * start's turn: it only replays. Never rejects.
 */
export async function runTurn(
  context: ConsumeContext,
  call: ConsumeCall | undefined,
  signal: AbortSignal,
): Promise<void> {
  const free = () => call !== undefined && inFreePeriod(context.state(), context.now());
  let refresh = false;
  let failure: unknown;
  try {
    // 2. The lock, only when the local state would send a POST. A call stopped before its turn waits for
    // nothing: the lock refuses an aborted signal at once.
    const held = context.consumeLock && !free() ? await context.consumeLock(signal) : undefined;
    if (held) context.dispatch({ type: 'consume/locked' });
    try {
      // 3. What the lock answered (dead tabs' POSTs) is sent again first; at start, what the journal claimed,
      // replayed under the lock, so a page re-sending a dead tab's POST and this one never both report it.
      if (context.recovery) refresh = await context.recovery.replay(context, held?.orphans, call ? undefined : signal);
      // 4. Decide (again under the lock: another tab's charge, or a replay's, may have started a free period);
      // a call stopped meanwhile sends nothing. No early return: a replay's credit charge still refreshes (10).
      if (call && !signal.aborted) {
        if (free()) call.result = unchargedResult(context.state());
        // 5. The id, made only for a POST; 6 to 8 in sendConsume.
        else refresh = (await sendConsume(context, call, (call.externalId ??= context.newId()))) || refresh;
      }
    } finally {
      // 9. The lock goes right after the answer is in the store.
      held?.release();
    }
    // 10. The balance, so the cache tells the truth (a failure shows in the status, never fails the consume):
    // one sent now, beside any older one in flight, which may be stale and which the click must not wait for.
    if (refresh) await context.balance.join({ signal, fresh: 'now' }).catch(() => undefined);
  } catch (error) {
    // A journal or a lock that fails (a lock manager that throws or rejects) leaves nothing to replay.
    failure = error;
  } finally {
    // 11. The caller.
    call?.end(failure);
  }
}

/**
 * Starts one `consume()` that goes past the store's free-period shortcut: its
 * call, settled once by whoever comes first (the consume, the caller's abort,
 * `dispose()`), then {@link runTurn}. Until the backend has
 * answered, an abort fails the call; after, the answer stands.
 */
export function startConsume(context: ConsumeContext, start: ConsumeStart): Promise<BillingConsumeResult> {
  // Its own call: nothing another consume does aborts it.
  const call = newCall(context, start);
  const turn = () => {
    // 1. Its turn: one at a time, in call order (a call aborted before it never takes one).
    context.tail = context.tail.then(() => runTurn(context, call, call.signal));
    return call.outcome;
  };
  // Without a signal of the caller's, only the consume and dispose() settle it: no race to run.
  if (start.signal === undefined) return turn();
  return deadline(turn, {
    signal: start.signal,
    onAbort: () => {
      call.end(abortedError());
      return call.outcome;
    },
  });
}
