import type { SchedulerLike } from 'rxjs';
import type { FetchLike } from '../../lib/types';

/** One request the client sent, as it left the client. */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly externalId: string | undefined;
  /** The scheduler's `now()` when sent. */
  readonly at: number;
}

function externalIdOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const parsed = JSON.parse(body) as { external_id?: unknown };
    return typeof parsed.external_id === 'string' ? parsed.external_id : undefined;
  } catch {
    return undefined;
  }
}

/** Wraps a fetch and logs every request on the client side, in the order sent. */
export function loggingFetch(inner: FetchLike, scheduler: SchedulerLike): { fetch: FetchLike; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch: FetchLike = (input, init = {}) => {
    const url = new URL(input);
    sent.push({
      method: init.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      externalId: externalIdOf(init.body),
      at: scheduler.now(),
    });
    return inner(input, init);
  };
  return { fetch, sent };
}

/**
 * Client-side faults: `hold` reads the whole answer (so the backend has
 * applied it) and keeps it until released; `lose` reads it and never hands it
 * over, so only the caller's abort or timeout ends the exchange.
 */
export class ResponseGate {
  private readonly queued = new Map<string, Array<{ release: Promise<void> | null; arrived: () => void }>>();
  private readonly stalls = new Map<string, number>();
  private waiting = 0;

  /**
   * Exchanges stalled on purpose (a lost answer, an expected stalled body):
   * a driver can move virtual time past them at once instead of waiting.
   */
  parked(): number {
    return this.waiting;
  }

  /** The next answer to `path` is expected to stall in its body (a backend `stall` fault). */
  expectStall(path: string): void {
    this.stalls.set(path, (this.stalls.get(path) ?? 0) + 1);
  }

  private park<T>(promise: Promise<T>): Promise<T> {
    this.waiting += 1;
    return promise.finally(() => (this.waiting -= 1));
  }

  /** The next answer to `path` waits for `release()`; `arrived` resolves once the backend has answered it. */
  hold(path: string): { readonly arrived: Promise<void>; readonly release: () => void } {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    return { arrived: this.push(path, gate), release };
  }

  /** The next answer to `path` is applied by the backend but never arrives. */
  lose(path: string): Promise<void> {
    return this.push(path, null);
  }

  private push(path: string, release: Promise<void> | null): Promise<void> {
    let arrived: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (arrived = resolve));
    this.queued.set(path, [...(this.queued.get(path) ?? []), { release, arrived }]);
    return done;
  }

  wrap(inner: FetchLike): FetchLike {
    return async (input, init = {}) => {
      const path = new URL(input).pathname;
      const entry = this.queued.get(path)?.shift();
      const stalls = this.stalls.get(path) ?? 0;
      if (stalls > 0) this.stalls.set(path, stalls - 1);
      const response = await inner(input, init);
      if (stalls > 0) {
        const text = () => this.park(response.text());
        return { status: response.status, headers: response.headers, text } as Response;
      }
      if (entry === undefined) return response;
      const text = await response.text();
      entry.arrived();
      const wait = new Promise<void>((resolve, reject) => {
        const signal = init.signal;
        const onAbort = () => reject(Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        void entry.release?.then(resolve);
      });
      await (entry.release === null ? this.park(wait) : wait);
      const headers: Record<string, string> = {};
      for (const name of ['retry-after', 'date', 'content-type']) {
        const value = response.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      return new Response(text, { status: response.status, headers });
    };
  }
}
