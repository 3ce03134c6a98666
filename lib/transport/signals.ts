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
 * - a request nobody waits for any more (unsubscribed: an abort, a cancelled
 *   load, `dispose()`) aborts its generation the same way: an abort cancels
 *   what it can, so a consume its caller gave up on is not charged later,
 *   and `dispose()` leaves no request running.
 */

// undici (Node's global fetch) adds two abort listeners per request and
// drops them only on GC; Node 20 warns from 11 listeners on a signal.
export const GENERATION_SIZE = 4;

interface Member {
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
  /** Nobody waits for the answer: aborts the generation; the other requests on it send again. */
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
    const others = [...generation.members].filter((member) => member !== except);
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
      const member: Member = { lost };
      generation.members.add(member);
      return {
        signal: generation.controller.signal,
        settled: () => {
          generation.members.delete(member);
        },
        // An abort must cancel what it can: a consume the caller gave up on must not charge later.
        abandoned: () => {
          if (generation.members.has(member)) abort(generation, member);
        },
        timedOut: () => {
          if (generation.members.has(member)) abort(generation, member);
        },
      };
    },
  };
}
