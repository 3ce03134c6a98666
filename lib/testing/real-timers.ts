// Real time for the testing kit under a test's fake timers: a `delay` fault is the backend's time,
// not the test's, and `clock.settle` must let the event loop turn while the test's timers stand
// still. Jest's (modern) and Vitest's fake timers are @sinonjs/fake-timers: the fake `setTimeout`
// carries its clock, which keeps the global it replaced. Looked up at each call, so fakes installed
// before or after this module loaded are both seen through. Jest's legacy fake timers keep no
// original: they are not seen through.

interface FakedTimers {
  readonly clock?: {
    readonly _setTimeout?: typeof setTimeout;
    readonly _clearTimeout?: typeof clearTimeout;
  };
}

/** Runs `run` after `ms` of real time; returns what cancels it. */
export function realTimeout(run: () => void, ms: number): () => void {
  const clock = (globalThis.setTimeout as FakedTimers).clock;
  const set = clock?._setTimeout ?? globalThis.setTimeout;
  const clear = clock?._clearTimeout ?? globalThis.clearTimeout;
  const id = set.call(globalThis, run, ms);
  return () => clear.call(globalThis, id);
}

/** One turn of the real event loop: every promise job queued so far has run. */
export const realTurn = (): Promise<void> => new Promise((resolve) => realTimeout(resolve, 0));
