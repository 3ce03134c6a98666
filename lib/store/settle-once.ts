import { abortedError } from '../shared/errors';

/**
 * One caller's promise of shared `work`: settled once, by whichever comes
 * first of the work's outcome, the caller's abort (`leave()` tells the work
 * it has one caller less, then the caller gets `aborted`) or an end taken
 * from `waiting` (dispose tells each caller why). The work's rejection is
 * always handled here, so a caller that left never leaves it unhandled; the
 * abort listener goes as soon as the caller is settled. The caller checks
 * an already aborted signal before it starts or joins any work.
 */
export function settleOnce<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  waiting: Set<(error: unknown) => void>,
  leave: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // `waiting` holds `end` until the first of them runs: that is the "once".
    const once =
      <V>(then: (value: V) => void) =>
      (value: V) => {
        if (!waiting.delete(end)) return;
        signal?.removeEventListener('abort', abort);
        then(value);
      };
    const end = once(reject);
    // The work hears first, so what it ends (a request's `usage/failed`) is applied by the time the caller resumes.
    const abort = once(() => {
      leave();
      reject(abortedError());
    });
    waiting.add(end);
    signal?.addEventListener('abort', abort);
    work.then(once(resolve), end);
  });
}
