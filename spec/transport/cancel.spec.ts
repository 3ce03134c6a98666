import { BillingError } from '../../lib/errors';
import { GENERATION_SIZE } from '../../lib/transport/signals';
import type { FetchLike } from '../../lib/types';
import { settle } from '../helpers/virtual-clock';
import { fakeApi, okFor, outcome } from './fake-api';

interface Hung {
  readonly signal: AbortSignal;
  readonly body: unknown;
  readonly answer: () => void;
}

// A fetch that answers only when told, and rejects like fetch does when its signal aborts.
function heldFetch(): { fetch: FetchLike; sent: Hung[] } {
  const sent: Hung[] = [];
  const fetch: FetchLike = (input, init) =>
    new Promise((resolve, reject) => {
      const signal = init?.signal;
      if (!signal) throw new Error('no signal');
      const path = new URL(input).pathname;
      const answer = () => resolve(new Response(JSON.stringify(okFor(path).body)));
      sent.push({ signal, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined, answer });
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });
  return { fetch, sent };
}

const aborted = (sent: Hung[]) => sent.map((request) => request.signal.aborted);

describe('what unsubscribing and timeouts abort', () => {
  it('unsubscribing the only request on a signal aborts it and clears its timeout', () => {
    const { fetch, sent } = heldFetch();
    const { api, clock } = fakeApi(fetch);
    const subscription = api.consume$('op-c').subscribe({ error: () => {} });
    expect(aborted(sent)).toEqual([false]);
    subscription.unsubscribe();
    expect(aborted(sent)).toEqual([true]);
    expect(clock.pending).toBe(0);
  });

  it('an unsubscribed request sharing a signal aborts it at once; the other, still waited for, is sent again', async () => {
    const { fetch, sent } = heldFetch();
    const { api, clock } = fakeApi(fetch);
    const first = api.consume$('op-gone').subscribe({ error: () => {} });
    const onSend = jest.fn();
    const second = outcome(api.consume$('op-kept', onSend));
    expect(sent[0]?.signal).toBe(sent[1]?.signal);
    // The caller of the first gave up: its POST is cancelled, not left to charge later.
    first.unsubscribe();
    expect(aborted(sent)).toEqual([true, true]);
    await settle();
    expect(sent).toHaveLength(3);
    expect(sent[2]?.body).toEqual({ module: 'generator_poster', external_id: 'op-kept' });
    expect(onSend).toHaveBeenCalledTimes(2);
    sent[2]?.answer();
    await settle();
    expect(second).toEqual({ value: { kind: 'charged', freeRemaining: 1, isCredit: false }, done: true });
    expect(clock.pending).toBe(0);
  });

  it('requests unsubscribed together (what dispose() does) leave nothing running and send nothing again', async () => {
    const { fetch, sent } = heldFetch();
    const { api, clock } = fakeApi(fetch);
    const first = api.balance$().subscribe({ error: () => {} });
    const second = api.freeCount$().subscribe({ error: () => {} });
    first.unsubscribe();
    second.unsubscribe();
    await settle();
    expect(aborted(sent)).toEqual([true, true]);
    expect(sent).toHaveLength(2);
    expect(clock.pending).toBe(0);
  });

  it('a request that finishes on its own leaves the signal to the others', async () => {
    const { fetch, sent } = heldFetch();
    const { api } = fakeApi(fetch);
    const done = outcome(api.balance$());
    const waited = outcome(api.freeCount$());
    sent[0]?.answer();
    await settle();
    expect(done.done).toBe(true);
    expect(aborted(sent)).toEqual([false, false]);
    sent[1]?.answer();
    await settle();
    expect(waited.done).toBe(true);
    expect(aborted(sent)).toEqual([false, false]);
  });

  it('a timeout aborts its signal; the other request still waited for is sent again at once, same body, not as a retry', async () => {
    const { fetch, sent } = heldFetch();
    const onRetry = jest.fn();
    const { api, clock } = fakeApi(fetch, { onRetry });
    const timing = outcome(api.balance$());
    clock.advanceBy(5_000);
    const onSend = jest.fn();
    const other = outcome(api.consume$('op-t', onSend));
    expect(sent[1]?.signal).toBe(sent[0]?.signal);
    clock.advanceBy(5_000);
    await settle();
    // The balance GET timed out: its signal aborted, the consume went out again on a new one.
    expect(aborted(sent)).toEqual([true, true, false]);
    expect(sent[2]?.body).toEqual({ module: 'generator_poster', external_id: 'op-t' });
    expect(onSend).toHaveBeenCalledTimes(2);
    // Only the timed-out request schedules a retry.
    expect(onRetry.mock.calls).toEqual([[{ attempt: 2, delayMs: 125, path: '/ai/v1/credit/getBalance' }]]);
    sent[2]?.answer();
    await settle();
    expect(other).toEqual({ value: { kind: 'charged', freeRemaining: 1, isCredit: false }, done: true });
    expect(timing.done).toBe(false);
  });

  it('the re-sent request keeps every retry: a fresh budget, then its own retries', async () => {
    const { fetch, sent } = heldFetch();
    const onRetry = jest.fn();
    const { api, clock } = fakeApi(fetch, { onRetry, policy: { ...fakePolicy(), retries: 1 } });
    outcome(api.balance$());
    clock.advanceBy(1_000);
    const other = outcome(api.freeCount$());
    clock.advanceBy(9_000);
    await settle();
    expect(sent).toHaveLength(3);
    // A full budget for the re-send, then its one retry.
    clock.advanceBy(9_999);
    expect(onRetry).toHaveBeenCalledTimes(1);
    clock.advanceBy(1);
    expect(onRetry.mock.calls[1]).toEqual([{ attempt: 3, delayMs: 125, path: '/ai/v5/service/free_trial/count' }]);
    expect(other.done).toBe(false);
  });

  it(`a signal is shared by at most ${GENERATION_SIZE} requests`, () => {
    const { fetch, sent } = heldFetch();
    const { api } = fakeApi(fetch);
    for (let i = 0; i <= GENERATION_SIZE; i++) outcome(api.consume$(`op-${i}`));
    expect(new Set(sent.map((request) => request.signal)).size).toBe(2);
  });

  it('a completed request is never aborted afterwards (no abort work after a success)', async () => {
    const { fetch, sent } = heldFetch();
    const { api } = fakeApi(fetch);
    const result = outcome(api.balance$());
    sent[0]?.answer();
    await settle();
    expect(result).toEqual({ value: 9, done: true });
    expect(aborted(sent)).toEqual([false]);
  });

  it('the last timeout rejects with the timeout error naming the path', async () => {
    const { fetch } = heldFetch();
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
