// Waiting on real I/O without betting on the machine's speed: wait for the event itself, with
// a deadline far beyond what a busy machine needs, that only turns a hang into a clear failure.
// Real timers captured at load, so tests that fake timers (jest.useFakeTimers) can still wait.
const realSetTimeout = setTimeout;
const realClearTimeout = clearTimeout;
const realNow = Date.now;

/** Room for anything that should take milliseconds, on a machine busy with other work. */
export const ROOM_MS = 10_000;

/**
 * Resolves once `condition()` holds, checked every few milliseconds; rejects
 * naming `what` if it still does not hold after `timeoutMs` of real time.
 */
export async function until(condition: () => boolean, what: string, timeoutMs = ROOM_MS): Promise<void> {
  const deadline = realNow() + timeoutMs;
  while (!condition()) {
    if (realNow() > deadline) throw new Error(`still waiting for ${what} after ${timeoutMs} ms`);
    // A few ms between checks: a spin on setImmediate would take a core from the work awaited.
    await new Promise<void>((resolve) => realSetTimeout(resolve, 5));
  }
}

/** `promise`, or a rejection naming `what` if it has not settled after `timeoutMs` of real time. */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs = ROOM_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = realSetTimeout(() => reject(new Error(`${what} did not settle within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    realClearTimeout(timer);
  }
}
