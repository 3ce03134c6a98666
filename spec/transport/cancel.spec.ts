import { BillingError } from '../../lib/errors';
import type { FetchLike } from '../../lib/types';
import { settle } from '../helpers/virtual-clock';
import { fakeApi, outcome } from './fake-api';

// A fetch that never answers but rejects like fetch does when its signal aborts.
function hangingFetch(): { fetch: FetchLike; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  const fetch: FetchLike = (_input, init) =>
    new Promise((_resolve, reject) => {
      const signal = init?.signal;
      if (signal) {
        signals.push(signal);
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      }
    });
  return { fetch, signals };
}

describe('what unsubscribing and timeouts abort', () => {
  it('unsubscribing aborts the request in flight and clears its timeout', async () => {
    const { fetch, signals } = hangingFetch();
    const { api, clock } = fakeApi(fetch);
    const subscription = api.consume$('op-c').subscribe({ error: () => {} });
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    subscription.unsubscribe();
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(clock.pending).toBe(0);
  });

  it("a timeout aborts that attempt's request only, and the retry goes out on a live signal", async () => {
    const { fetch, signals } = hangingFetch();
    const { api, clock } = fakeApi(fetch);
    const other = outcome(api.balance$());
    clock.advanceBy(5_000);
    const timed = outcome(api.consume$('op-t'));
    clock.advanceBy(5_000);
    // The balance GET timed out; the consume, sent 5 s later, is untouched.
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    clock.advanceBy(125);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false, false]);
    await settle();
    expect(other.done || timed.done).toBe(false);
  });

  it('a completed request is never aborted afterwards (no abort work after a success)', async () => {
    const signals: AbortSignal[] = [];
    const fetch: FetchLike = (_input, init) => {
      if (init?.signal) signals.push(init.signal);
      return Promise.resolve(new Response(JSON.stringify({ code: 0, message: 'ok', data: { balance: 1 } })));
    };
    const { api } = fakeApi(fetch);
    const result = outcome(api.balance$());
    await settle();
    expect(result).toEqual({ value: 1, done: true });
    expect(signals[0]?.aborted).toBe(false);
  });

  it('the last timeout rejects with the timeout error naming the path', async () => {
    const { fetch } = hangingFetch();
    const { api, clock } = fakeApi(fetch, { policy: { ...fakePolicy(), retries: 0 } });
    const result = outcome(api.balance$());
    clock.advanceBy(10_000);
    await settle();
    expect(result.error).toBeInstanceOf(BillingError);
    expect((result.error as BillingError).message).toBe('GET /ai/v1/credit/getBalance timed out after 10000 ms');
  });
});

function fakePolicy() {
  return { baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 30_000, random: () => 0.5 };
}
