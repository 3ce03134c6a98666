import type { FetchLike } from '../types';

/** The parts of a response the client reads; the body is read whole. */
export interface HttpResponse {
  readonly status: number;
  /** Read on a failed status only: `Retry-After` matters to errors alone. */
  readonly retryAfter: string | null;
  /** Read on a failed status only, to measure an HTTP-date `Retry-After` against. */
  readonly date: string | null;
  readonly text: string;
}

const ok = (status: number) => status >= 200 && status <= 299;

/**
 * The only place that calls `fetch`: one exchange, body read whole. A fetch
 * that throws instead of rejecting rejects here too. Timeouts and aborts are
 * the caller's (it owns `init.signal`).
 *
 * @example
 * ```ts
 * const response = await exchange(fetch, `${baseUrl}/ai/v1/credit/getBalance`, { method: 'GET' });
 * ```
 */
export function exchange(fetchFn: FetchLike, url: string, init: RequestInit): Promise<HttpResponse> {
  let pending: Promise<Response>;
  try {
    pending = fetchFn(url, init);
  } catch (error) {
    return Promise.reject(error);
  }
  return pending.then(async (response) => {
    const { status } = response;
    const failed = !ok(status);
    return {
      status,
      retryAfter: failed ? response.headers.get('retry-after') : null,
      date: failed ? response.headers.get('date') : null,
      text: await response.text(),
    };
  });
}
