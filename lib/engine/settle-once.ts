import { abortedError } from '../errors';

/** What one caller of shared work is linked to. */
export interface CallerLink {
  /** The caller's own signal: its abort settles this caller only, `aborted`. */
  readonly signal?: AbortSignal | undefined;
  /** Every caller still waiting, each by the function that ends it, so `dispose()` tells each one why. */
  readonly waiting: Set<(error: unknown) => void>;
  /** Called once when this caller leaves by its signal, so the work knows it has one caller less. */
  readonly leave: () => void;
}

/**
 * One caller's promise of shared `work`: settled once, by whichever comes
 * first of the work's outcome, the caller's abort (`leave`, then `aborted`)
 * or an end from `waiting` (dispose). The work's rejection is always handled
 * here, so a caller that left never leaves it unhandled; the abort listener
 * goes as soon as the caller is settled.
 *
 * @example
 * ```ts
 * const waiting = new Set<(error: unknown) => void>();
 * const answer = settleOnce(request, { signal, waiting, leave: () => --callers || controller.abort() });
 * ```
 */
export function settleOnce<T>(work: Promise<T>, { signal, waiting, leave }: CallerLink): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortedError());
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const settle = (): boolean => {
      if (done) return false;
      done = true;
      waiting.delete(end);
      signal?.removeEventListener('abort', abort);
      return true;
    };
    const end = (error: unknown) => settle() && reject(error);
    // The work hears first, so what it ends (a request's `usage/failed`) is applied by the time the caller resumes.
    const abort = () => {
      if (!settle()) return;
      leave();
      reject(abortedError());
    };
    waiting.add(end);
    signal?.addEventListener('abort', abort);
    work.then(
      (value) => settle() && resolve(value),
      (error: unknown) => settle() && reject(error),
    );
  });
}
