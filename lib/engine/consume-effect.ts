import { inFreePeriod } from '../core/decide';
import type { BillingState } from '../core/state';
import { BillingError } from '../errors';
import type { BillingConsumeResult } from '../types';
import { BACKEND_CODES } from '../wire';
import type { Engine } from './engine';

/** The result of a consume the backend is not asked about (a free period) or that charged nothing. */
export function unchargedResult(state: BillingState, isBlacklisted = false): BillingConsumeResult {
  return { freeRemaining: state.quota?.freeRemaining ?? 0, isCredit: false, isBlacklisted };
}

/**
 * One `consume()` as its caller sees it: the promise, settled once by
 * whoever comes first (the consume itself, an abort, `dispose()`), and what
 * the consume learned on the way.
 */
export class ConsumeCall {
  readonly promise: Promise<BillingConsumeResult>;
  settled = false;
  /** Its POST was sent and no answer fact (a charge, a refusal) closed it yet. */
  open = false;
  /** The backend charged: from then on the call can only succeed. */
  charged = false;
  /** The outcome once the backend answered: an abort after that settles with it. */
  known: { readonly result: BillingConsumeResult | null; readonly error: BillingError | null } | null = null;
  /** Aborts this consume's own work: its lock wait, its POST, its balance refresh. */
  readonly controller = new AbortController();
  private resolved!: (result: BillingConsumeResult) => void;
  private rejected!: (error: unknown) => void;

  constructor(
    /** Given by the caller or replayed; made only when a POST goes out. */
    public externalId: string | undefined,
    /** Left unanswered by an earlier page: always asks the backend, whatever the free period says. */
    readonly replay: boolean,
    private readonly onSettled: (
      call: ConsumeCall,
      result: BillingConsumeResult | null,
      error: BillingError | null,
    ) => void,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.resolved = resolve;
      this.rejected = reject;
    });
  }

  resolve(result: BillingConsumeResult): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettled(this, result, null);
    this.resolved(result);
  }

  // The one place a consume's error gets its externalId.
  reject(error: unknown): void {
    if (this.settled) return;
    const known = error instanceof BillingError ? error : new BillingError('network', 'Unexpected failure of consume');
    const { externalId } = this;
    const told = externalId === undefined || known.externalId !== undefined ? known : known.withExternalId(externalId);
    this.settled = true;
    this.onSettled(this, null, told);
    this.rejected(told);
  }

  /** Settles with what the backend answered, else with `error`. */
  end(error: BillingError): void {
    const known = this.known;
    if (known?.result) this.resolve(known.result);
    else this.reject(known?.error ?? error);
  }

  /** An abort or `dispose()`: settles as {@link end} does and stops this consume's work. */
  stop(error: BillingError): void {
    this.end(error);
    this.controller.abort();
  }
}

/**
 * A consume, top to bottom, in the order of the spec: wait for its turn;
 * take the cross-tab lock if the local state does not make it free; decide;
 * make the id; journal it; POST; apply the answer (facts for the reducer);
 * release the lock; refresh the balance after a credit charge or a refusal;
 * settle the caller. Consumes run one at a time, in call order.
 */
export async function runConsume(engine: Engine, call: ConsumeCall): Promise<void> {
  // 1. Its turn.
  const previous = engine.tail;
  let next!: () => void;
  engine.tail = new Promise<void>((resolve) => (next = resolve));
  await previous;
  const { signal } = call.controller;
  const free = () => !call.replay && inFreePeriod(engine.state, engine.now());
  let refresh = false;
  try {
    if (call.settled) return;
    // 2. The lock, only when the local state would send a POST.
    const release = engine.exclusive !== undefined && !free() ? await engine.exclusive(signal) : undefined;
    try {
      // 3. Decide (again under the lock: another tab's charge may have started a free period).
      if (call.settled) return;
      if (free()) return call.resolve(unchargedResult(engine.state));
      // 4. The id, made only for a POST; 5. journaled before it: a page that dies now leaves it to replay.
      const externalId = (call.externalId ??= engine.newId());
      engine.journal?.(externalId);
      // 6. The POST, numbered as each attempt goes out.
      engine.dispatch({ type: 'consume/sent', externalId });
      call.open = true;
      const sent = { seq: 0 };
      const answer = await engine.api.consume(externalId, { signal, onSend: () => engine.stamp(sent) });
      // 7. The answer, as facts.
      if (answer.kind === 'charged') {
        const { freeRemaining, isCredit } = answer;
        call.open = false;
        call.charged = true;
        call.known = { result: { freeRemaining, isCredit, isBlacklisted: false }, error: null };
        engine.dispatch({ type: 'consume/charged', ...sent, now: engine.now(), freeRemaining, isCredit });
        refresh = isCredit;
      } else if (answer.kind === 'insufficient') {
        call.open = false;
        const error = new BillingError('insufficient_credits', 'Not enough credits for this operation', {
          backendCode: BACKEND_CODES.insufficient,
        });
        call.known = { result: null, error };
        engine.dispatch({ type: 'consume/insufficient', ...sent });
        refresh = true;
      } else {
        call.known = { result: unchargedResult(engine.state, true), error: null };
      }
    } finally {
      // 8. The lock goes right after the answer is in the store.
      release?.();
    }
    // 9. The balance, so the cache tells the truth (a failure shows in the status, never fails the consume).
    if (refresh) await engine.balance.join(signal, true).catch(() => undefined);
    // 10. The caller.
    call.end(new BillingError('aborted', 'consume() was aborted'));
  } catch (error) {
    call.reject(error);
  } finally {
    next();
  }
}
