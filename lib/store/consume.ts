import { inFreePeriod } from '../core/decide';
import type { BillingState } from '../core/state';
import { BillingError } from '../shared/errors';
import type { BillingConsumeResult } from '../shared/types';
import { BACKEND_CODES } from '../shared/wire';
import type { Exclusive } from './hooks';
import type { Flight } from './flight';
import type { LoadContext } from './usage';

/** The result of a consume the backend is not asked about (a free period) or that charged nothing. */
export const unchargedResult = (state: BillingState, isBlacklisted = false): BillingConsumeResult => ({
  freeRemaining: state.quota?.freeRemaining ?? 0,
  isCredit: false,
  isBlacklisted,
});

/** What the features add around a consume's POST; each absent without its feature. */
export interface ConsumeHooks {
  /** The cross-tab consume lock (tab sync). */
  readonly exclusive: Exclusive | undefined;
  /** Records a consume before its POST goes out (reload safety). */
  readonly journal: ((externalId: string) => void) | undefined;
  /** Forgets a journaled consume once its caller has the outcome (only this client's own entries). */
  readonly forget: (externalId: string) => void;
}

/** The consumes of one client: they run one at a time, in call order. */
export interface ConsumeQueue {
  /** Where the next consume waits for its turn. */
  tail: Promise<void>;
  /** The consumes whose caller is still waiting, each by its `stop`, so `dispose()` settles every one. */
  readonly live: Set<(error: BillingError) => void>;
}

/** What a consume uses of its client: the transport and the store (`LoadContext`), and these. */
export interface ConsumeContext extends LoadContext {
  readonly hooks: ConsumeHooks;
  readonly queue: ConsumeQueue;
  readonly balance: Flight<number>;
  readonly newId: () => string;
}

/** One `consume()`: what it learns on the way, and how its caller is settled. */
export interface ConsumeCall {
  /** Given by the caller or replayed; made only when a POST goes out. */
  externalId: string | undefined;
  /** Left unanswered by an earlier page: always asks the backend, whatever the free period says. */
  readonly replay: boolean;
  /** Aborts this consume's own work: its lock wait, its POST, its balance refresh. */
  readonly signal: AbortSignal;
  /** Its POST was sent and no answer fact (a charge, a refusal) closed it yet. */
  open: boolean;
  /** The backend charged: from then on the call can only succeed. */
  charged: boolean;
  /** What the backend answered, a result or a refusal: an abort after that settles with it. */
  result?: BillingConsumeResult;
  error?: BillingError;
  /** Settled already (by the consume, an abort or `dispose()`, whichever came first). */
  done: boolean;
  /** Settles the caller, once: with what the backend answered, else with `error`. */
  end(error?: unknown): void;
}

/**
 * A consume, top to bottom, in the order of the spec: wait for its turn;
 * take the cross-tab lock if the local state does not make it free; decide;
 * make the id; journal it; POST; apply the answer (facts for the reducer);
 * release the lock; refresh the balance after a credit charge or a refusal;
 * settle the caller. Consumes run one at a time, in call order.
 */
export async function runConsume(context: ConsumeContext, call: ConsumeCall): Promise<void> {
  const { store, hooks, queue } = context;
  const { dispatch, state, now } = store;
  const { signal } = call;
  // 1. Its turn.
  const previous = queue.tail;
  let next!: () => void;
  queue.tail = new Promise<void>((resolve) => (next = resolve));
  await previous;
  const free = () => !call.replay && inFreePeriod(state(), now());
  let refresh = false;
  let failure: unknown;
  try {
    if (call.done) return;
    // 2. The lock, only when the local state would send a POST (under it, a feature may send a dead tab's POST
    // again through this client's transport, numbered like any attempt).
    const release =
      hooks.exclusive && !free() ? await hooks.exclusive(signal, { api: context.api, stamp: store.stamp }) : undefined;
    try {
      // 3. Decide (again under the lock: another tab's charge may have started a free period).
      if (call.done) return;
      if (free()) {
        call.result = unchargedResult(state());
        return;
      }
      // 4. The id, made only for a POST; 5. journaled before it: a page that dies now leaves it to replay.
      const externalId = (call.externalId ??= context.newId());
      hooks.journal?.(externalId);
      // 6. The POST, numbered as each attempt goes out.
      dispatch({ type: 'consume/sent', externalId });
      call.open = true;
      let seq = 0;
      const answer = await context.api.consume(externalId, { signal, onSend: () => (seq = store.stamp()) });
      // 7. The answer, as facts.
      if (answer.kind === 'charged') {
        const { freeRemaining, isCredit } = answer;
        call.open = false;
        call.charged = true;
        call.result = { freeRemaining, isCredit, isBlacklisted: false };
        dispatch({ type: 'consume/charged', seq, now: now(), freeRemaining, isCredit });
        refresh = isCredit;
      } else if (answer.kind === 'insufficient') {
        call.open = false;
        call.error = new BillingError('insufficient_credits', 'Not enough credits', {
          backendCode: BACKEND_CODES.insufficient,
        });
        dispatch({ type: 'consume/insufficient', seq });
        refresh = true;
      } else {
        call.result = unchargedResult(state(), true);
      }
    } finally {
      // 8. The lock goes right after the answer is in the store.
      release?.();
    }
    // 9. The balance, so the cache tells the truth (a failure shows in the status, never fails the consume):
    // a request sent after the answer, queued behind one in flight, as one sent before it may be stale.
    if (refresh) await context.balance.join({ signal, fresh: 'now' }).catch(() => undefined);
  } catch (error) {
    failure = error;
  } finally {
    // 10. The caller.
    call.end(failure);
    next();
  }
}

/**
 * Starts one `consume()` that goes past the engine's free-period shortcut: its
 * call, settled once by whoever comes first (the consume, the caller's abort,
 * `dispose()`), then {@link runConsume}. `replay` marks a consume an earlier
 * page left unanswered.
 */
export const startConsume = (
  context: ConsumeContext,
  externalId: string | undefined,
  signal: AbortSignal | undefined,
  replay: boolean,
): Promise<BillingConsumeResult> =>
  new Promise((resolve, reject) => {
    const { live } = context.queue;
    // Its own controller: nothing another consume does aborts this one (issue 17).
    const controller = new AbortController();
    const call: ConsumeCall = {
      externalId,
      replay,
      signal: controller.signal,
      open: false,
      charged: false,
      done: false,
      end(failure) {
        if (call.done) return;
        call.done = true;
        live.delete(stop);
        signal?.removeEventListener('abort', abort);
        const { result = null, externalId: id, charged, open } = call;
        // The one place a consume's error gets its externalId.
        let error: BillingError | null = null;
        if (!result) {
          const thrown = call.error ?? failure;
          error =
            thrown instanceof BillingError
              ? thrown
              : new BillingError('network', __DEV__ ? 'Unexpected failure of consume' : 'consume failed');
          if (id !== undefined && error.externalId === undefined) error = error.withExternalId(id);
        }
        context.store.dispatch({ type: 'consume/settled', externalId: id ?? null, result, error, charged, open });
        // The caller has the outcome (or was told the client is gone): nothing is left to replay.
        if (id !== undefined) context.hooks.forget(id);
        if (result) resolve(result);
        else reject(error);
      },
    };
    // Until the backend has answered, an abort fails the call; after, the answer stands.
    const stop = (error: BillingError) => {
      call.end(error);
      controller.abort();
    };
    const abort = () => stop(new BillingError('aborted', 'consume() was aborted'));
    live.add(stop);
    if (signal?.aborted) abort();
    else {
      signal?.addEventListener('abort', abort);
      void runConsume(context, call);
    }
  });
