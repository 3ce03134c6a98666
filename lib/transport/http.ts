import type { FetchLike } from '../shared/types';

/** The parts of a response the client reads; the body is read whole. */
export interface HttpResponse {
  readonly status: number;
  /** Read on a failure only (`Retry-After`, `Date`, `Content-Type`). */
  readonly headers: { get(name: string): string | null };
  readonly text: string;
}

/**
 * The only place that calls `fetch`: one exchange, body read whole. A fetch
 * that throws instead of rejecting (no global fetch, an "Illegal invocation")
 * throws here too, synchronously: it never sent anything, so the caller
 * reports its setup, not the network. Timeouts and aborts are the caller's
 * (it owns `init.signal`); the options refuse a `fetch` that is not a function.
 */
export const exchange = (fetchFn: FetchLike, url: string, init: RequestInit): Promise<HttpResponse> =>
  fetchFn(url, init).then((response) =>
    response.text().then((text) => ({ status: response.status, headers: response.headers, text })),
  );
