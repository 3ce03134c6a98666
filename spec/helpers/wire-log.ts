import type { FetchLike } from '../../lib';

/** One request the client sent, as it left the client. */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  /** The headers as the client gave them. */
  readonly headers: Record<string, string>;
  /** The body, parsed as JSON when it is JSON. */
  readonly body: unknown;
  readonly externalId: string | undefined;
  readonly signal: AbortSignal | null | undefined;
  /** The scheduler's `now()` when sent. */
  readonly at: number;
}

/** A waiting exchange: `release` lets it go on, `null` never does (only an abort ends it). */
type Held = { readonly release: Promise<void> | null; readonly arrived: () => void };

const aborted = () => Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};
const throwIfAborted = (signal: AbortSignal | null | undefined) => {
  if (signal?.aborted === true) throw aborted();
};

/**
 * The one network double around a real fetch (the reference backend's, or a
 * socket's): it logs every request as sent, counts exchanges in flight (body
 * included), and can hold requests before the backend (`holding`), hold or
 * lose the answer of a path once the backend applied it (`hold`, `lose`), or
 * pace both ends of every exchange (`pace`). Odd answers come from the
 * reference backend's own faults (`failNext`), not from here.
 */
export class Wire {
  readonly sent: SentRequest[] = [];
  /** While true, requests wait before reaching the backend until `release()` (or their abort, as on a network). */
  holding = false;
  /** Awaited before the request goes on and once its whole answer is read; aborts are honoured after each. */
  pace?: (request: SentRequest, answer?: { readonly status: number; readonly text: string }) => Promise<void>;
  private held: Array<() => void> = [];
  private readonly answers = new Map<string, Held[]>();
  private readonly stalls = new Map<string, number>();
  /** The most exchanges in flight at once. */
  peak = 0;
  private open = 0;
  private waiting = 0;

  constructor(
    private readonly inner: FetchLike,
    private readonly scheduler: { now(): number } = { now: () => 0 },
  ) {}

  count(path: string): number {
    return this.sent.filter((request) => request.path === path).length;
  }

  /** Exchanges under way, body included, less those stalled on purpose (a driver need not wait for them). */
  inFlight(): number {
    return this.open - this.waiting;
  }

  /** Requests held since `holding` was set go on now (later ones wait while it stays set). */
  release(): void {
    this.held.splice(0).forEach((go) => go());
  }

  /** The next answer to `path` is expected to stall in its body (a backend `stall` fault). */
  expectStall(path: string): void {
    this.stalls.set(path, (this.stalls.get(path) ?? 0) + 1);
  }

  /** The next answer to `path` waits for `release()`; `arrived` resolves once the backend has answered it. */
  hold(path: string): { readonly arrived: Promise<void>; readonly release: () => void } {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    return { arrived: this.queue(path, gate), release };
  }

  /** The next answer to `path` is applied by the backend but never arrives. */
  lose(path: string): Promise<void> {
    return this.queue(path, null);
  }

  private queue(path: string, release: Promise<void> | null): Promise<void> {
    let arrived: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (arrived = resolve));
    this.answers.set(path, [...(this.answers.get(path) ?? []), { release, arrived }]);
    return done;
  }

  private park<T>(promise: Promise<T>): Promise<T> {
    this.waiting += 1;
    return promise.finally(() => (this.waiting -= 1));
  }

  readonly fetch: FetchLike = async (input, init = {}) => {
    const url = new URL(input);
    const body = typeof init.body === 'string' ? parse(init.body) : undefined;
    const request: SentRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...((init.headers ?? {}) as Record<string, string>) },
      body,
      externalId: (body as { external_id?: unknown } | undefined)?.external_id as string | undefined,
      signal: init.signal,
      at: this.scheduler.now(),
    };
    this.sent.push(request);
    this.open += 1;
    this.peak = Math.max(this.peak, this.open);
    let reading = false;
    try {
      const response = await this.exchange(request, input, init);
      reading = true;
      const text = () => response.text().finally(() => (this.open -= 1));
      return { status: response.status, headers: response.headers, text } as Response;
    } finally {
      if (!reading) this.open -= 1;
    }
  };

  private async exchange(request: SentRequest, input: string, init: RequestInit): Promise<Response> {
    const { path } = request;
    if (this.holding) {
      await new Promise<void>((resolve, reject) => {
        this.held.push(resolve);
        init.signal?.addEventListener('abort', () => reject(aborted()), { once: true });
      });
    }
    await this.pace?.(request);
    throwIfAborted(init.signal);
    const entry = this.answers.get(path)?.shift();
    const stalls = this.stalls.get(path) ?? 0;
    if (stalls > 0) this.stalls.set(path, stalls - 1);
    const response = await this.inner(input, init);
    const { status, headers } = response;
    if (stalls > 0) return { status, headers, text: () => this.park(response.text()) } as Response;
    if (entry === undefined && this.pace === undefined) return response;
    const text = await response.text();
    entry?.arrived();
    await this.pace?.(request, { status, text });
    throwIfAborted(init.signal);
    if (entry !== undefined) {
      const wait = new Promise<void>((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(aborted()), { once: true });
        void entry.release?.then(resolve);
      });
      await (entry.release === null ? this.park(wait) : wait);
    }
    return { status, headers, text: async () => text } as Response;
  }
}

/** A wire's fetch and its log. */
export function loggingFetch(
  inner: FetchLike,
  scheduler: { now(): number },
): { fetch: FetchLike; sent: SentRequest[] } {
  const wire = new Wire(inner, scheduler);
  return { fetch: wire.fetch, sent: wire.sent };
}
