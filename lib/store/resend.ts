import type { ConsumeContext } from './consume';

/**
 * A dead tab's consume sent again under the consume lock (issue 23 point 6):
 * nobody awaits it, so its answer is applied as facts and never settles a
 * caller. A charge starts the free period (which tabSync tells the other tabs)
 * and lowers the cache as any charge does; a refusal sets the free count to 0.
 * Resolves whether the balance needs a refresh; rejects as the POST does.
 */
export async function resendConsume(
  context: ConsumeContext,
  externalId: string,
  signal: AbortSignal,
): Promise<boolean> {
  let seq = 0;
  const answer = await context.api.consume(externalId, { signal, onSend: () => (seq = context.stamp()) });
  if (answer.kind === 'charged') {
    const { freeRemaining, isCredit } = answer;
    context.dispatch({ type: 'consume/charged', seq, now: context.now(), freeRemaining, isCredit, resent: true });
    return isCredit;
  }
  if (answer.kind === 'insufficient') {
    context.dispatch({ type: 'consume/insufficient', seq, resent: true });
    return true;
  }
  // Blacklisted: nothing was charged and nothing of the cache changes.
  return false;
}
