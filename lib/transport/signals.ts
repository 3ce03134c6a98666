/**
 * Abort signals shared by a few requests of one api, so that most requests
 * skip creating an AbortController (about 4 to 12 µs each in Node, where a
 * signal is made transferable): one controller per "generation" of at most
 * {@link GENERATION_SIZE} requests.
 *
 * Aborting is exact for what matters:
 * - a per-attempt timeout aborts its generation; the other requests of that
 *   generation still waited for are told (`lost`) and send again at once,
 *   with the same body, so the backend's idempotency makes that safe;
 * - a request nobody waits for any more (unsubscribed) is left to finish,
 *   unless every request still running on its generation is in that case:
 *   then the generation is aborted. `dispose()` unsubscribes everything, so
 *   it leaves no request running.
 */

// undici (Node's global fetch) adds two abort listeners per request and
// drops them only on GC; Node 20 warns from 11 listeners on a signal.
export const GENERATION_SIZE = 4;

interface Member {
  waited: boolean;
  readonly lost: () => void;
}

interface Generation {
  readonly controller: AbortController;
  started: number;
  readonly members: Set<Member>;
}

/** One request's hold on a shared signal. */
export interface Lease {
  readonly signal: AbortSignal;
  /** The exchange has ended (answer read, or failed): nothing to abort any more. */
  settled(): void;
  /** Nobody waits for the answer; aborted once nobody waits on the whole generation. */
  abandoned(): void;
  /** This attempt timed out: aborts the generation; the other waited requests are told to send again. */
  timedOut(): void;
}

/**
 * The signals of one api.
 *
 * @example
 * ```ts
 * const signals = signalPool();
 * const lease = signals.lease(() => sendAgain());
 * fetch(url, { signal: lease.signal }).finally(() => lease.settled());
 * ```
 */
export function signalPool(): { lease(lost: () => void): Lease } {
  let current: Generation | undefined;

  const abort = (generation: Generation, except?: Member) => {
    if (current === generation) current = undefined;
    const others = [...generation.members].filter((member) => member !== except && member.waited);
    generation.members.clear();
    generation.controller.abort();
    // After the abort: each one sends again on a new generation.
    others.forEach((member) => member.lost());
  };

  return {
    lease(lost) {
      if (current === undefined || current.started >= GENERATION_SIZE) {
        current = { controller: new AbortController(), started: 0, members: new Set() };
      }
      const generation = current;
      generation.started += 1;
      const member: Member = { waited: true, lost };
      generation.members.add(member);
      const unwaited = () => {
        for (const other of generation.members) if (other.waited) return;
        if (generation.members.size > 0) abort(generation);
      };
      return {
        signal: generation.controller.signal,
        settled: () => {
          if (generation.members.delete(member)) unwaited();
        },
        abandoned: () => {
          if (!generation.members.has(member)) return;
          member.waited = false;
          unwaited();
        },
        timedOut: () => {
          if (generation.members.has(member)) abort(generation, member);
        },
      };
    },
  };
}
