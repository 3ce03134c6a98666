import { BillingError } from '../errors';
import type { Engine } from './engine';

const aborted = () => new BillingError('aborted', 'The call was aborted');

interface InFlight<T> {
  readonly controller: AbortController;
  promise: Promise<T>;
  /** Callers with a signal still waiting; the request is aborted when the last one leaves. */
  waiters: number;
  /** A caller without a signal joined: nobody can leave it. */
  held: boolean;
}

/**
 * One request shared by the callers that arrive while it is in flight
 * (`fresh` starts a new one, which later callers join). A caller's abort
 * rejects that caller; the request itself is aborted only once every caller
 * left. Nothing is shared with any other request.
 */
export class Flight<T> {
  private current: InFlight<T> | null = null;
  // Every caller still waiting, so `stop` tells each one why.
  private readonly callers = new Set<(error: unknown) => void>();
  private readonly live = new Set<InFlight<T>>();

  constructor(private readonly start: (controller: AbortController) => Promise<T>) {}

  join(signal?: AbortSignal, fresh = false): Promise<T> {
    if (signal?.aborted) return Promise.reject(aborted());
    let flight = fresh ? null : this.current;
    if (flight === null) {
      const started: InFlight<T> = {
        controller: new AbortController(),
        promise: undefined as unknown as Promise<T>,
        waiters: 0,
        held: false,
      };
      const end = () => {
        if (this.current === started) this.current = null;
        this.live.delete(started);
      };
      this.current = started;
      this.live.add(started);
      started.promise = this.start(started.controller);
      started.promise.then(end, end);
      flight = started;
    }
    const joined = flight;
    if (signal === undefined) joined.held = true;
    else joined.waiters++;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        done();
        if (--joined.waiters === 0 && !joined.held) joined.controller.abort();
        reject(aborted());
      };
      const done = () => {
        this.callers.delete(reject);
        signal?.removeEventListener('abort', leave);
      };
      this.callers.add(reject);
      signal?.addEventListener('abort', leave);
      joined.promise.then(
        (value) => (done(), resolve(value)),
        (error: unknown) => (done(), reject(error)),
      );
    });
  }

  /** Rejects every caller with `error` and aborts every request in flight (on dispose). */
  stop(error: unknown): void {
    this.current = null;
    this.callers.forEach((reject) => reject(error));
    this.live.forEach((flight) => flight.controller.abort());
  }
}

/**
 * `getUsage()`'s request: both GETs in parallel, numbered as each attempt goes
 * out; one `usage/loaded` once both are in, or the first error (the other is
 * aborted). The fact is dispatched before the callers hear of it, so each
 * reads the cache with the answer applied.
 */
export async function fetchUsage(engine: Engine, controller: AbortController): Promise<void> {
  const { signal } = controller;
  engine.dispatch({ type: 'usage/started' });
  const free = { seq: 0 };
  const balance = { seq: 0 };
  try {
    const [count, creditsBalance] = await Promise.all([
      engine.api.freeCount({ signal, onSend: () => engine.stamp(free) }),
      engine.api.balance({ signal, onSend: () => engine.stamp(balance) }),
    ]);
    const quota = { ...count, creditsBalance };
    const { seq } = free;
    engine.dispatch({
      type: 'usage/loaded',
      seq,
      balanceSeq: balance.seq,
      quota,
      now: engine.now(),
    });
  } catch (error) {
    controller.abort();
    engine.dispatch({ type: 'usage/failed', error: error as BillingError });
    throw error;
  }
}

/** The balance request (`refreshCredits()`, `getBalance()`, the refresh after a charge or a refusal). */
export async function fetchBalance(engine: Engine, { signal }: AbortController): Promise<number> {
  const sent = { seq: 0 };
  try {
    const balance = await engine.api.balance({ signal, onSend: () => engine.stamp(sent) });
    engine.dispatch({ type: 'balance/loaded', ...sent, balance });
    return balance;
  } catch (error) {
    engine.dispatch({ type: 'balance/failed', error: error as BillingError });
    throw error;
  }
}
