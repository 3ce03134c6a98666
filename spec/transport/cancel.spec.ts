import { getEventListeners } from 'node:events';
import { BillingError } from '../../lib';
import { settle } from '../helpers/virtual-clock';
import type { SentRequest } from '../helpers/wire-log';
import { fakeApi, outcome } from './api-fixture';

// Every request waits before the backend until released, and rejects like fetch does when its signal aborts.
function heldApi(config: Parameters<typeof fakeApi>[0] = {}) {
  const held = fakeApi(config);
  held.wire.holding = true;
  return held;
}

const aborted = (sent: SentRequest[]) => sent.map((request) => request.signal?.aborted);

describe('what aborts and timeouts abort', () => {
  it("aborting the caller's signal aborts that request's fetch, rejects aborted and clears its timeout", async () => {
    const { api, clock, sent } = heldApi();
    const controller = new AbortController();
    const result = outcome(api.consume('op-c', { signal: controller.signal }));
    expect(aborted(sent)).toEqual([false]);
    controller.abort();
    expect(aborted(sent)).toEqual([true]);
    expect(clock.pending).toBe(0);
    await settle();
    expect(result.error).toBeInstanceOf(BillingError);
    expect(result.error).toMatchObject({ code: 'aborted' });
  });

  it('a signal aborted before the call sends nothing', async () => {
    const { api, clock, sent } = heldApi();
    const result = outcome(api.balance({ signal: AbortSignal.abort() }));
    await settle();
    expect(result.error).toMatchObject({ code: 'aborted' });
    expect(sent).toHaveLength(0);
    expect(clock.pending).toBe(0);
  });

  it('each request has its own signal; aborting one leaves the others alone, none is sent again', async () => {
    const { api, clock, wire, sent } = heldApi();
    const controller = new AbortController();
    outcome(api.consume('op-gone', { signal: controller.signal }));
    const onSend = jest.fn();
    const kept = [outcome(api.consume('op-kept', { onSend })), outcome(api.balance()), outcome(api.freeCount())];
    expect(new Set(sent.map((request) => request.signal)).size).toBe(4);
    controller.abort();
    await settle();
    expect(aborted(sent)).toEqual([true, false, false, false]);
    expect(sent).toHaveLength(4);
    expect(onSend).toHaveBeenCalledTimes(1);
    wire.release(); // the aborted one has already failed
    await settle();
    expect(kept.map((result) => result.done)).toEqual([true, true, true]);
    expect(kept[0]?.value).toEqual({ kind: 'charged', freeRemaining: 1, isCredit: false });
    expect(clock.pending).toBe(0);
  });

  it("a timeout aborts its own fetch only; another request's fetch goes on, not sent again, not retried", async () => {
    const onRetry = jest.fn();
    const { api, clock, wire, sent } = heldApi({ onRetry });
    const timing = outcome(api.balance());
    clock.advanceBy(5_000);
    const onSend = jest.fn();
    const other = outcome(api.consume('op-t', { onSend }));
    clock.advanceBy(5_000);
    await settle();
    expect(aborted(sent)).toEqual([true, false]);
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onRetry.mock.calls).toEqual([
      [
        {
          attempt: 2,
          delayMs: 125,
          path: '/ai/v1/credit/getBalance',
          error: expect.objectContaining({ code: 'timeout' }),
        },
      ],
    ]);
    wire.release(); // the first has already failed
    await settle();
    expect(other).toEqual({ value: { kind: 'charged', freeRemaining: 1, isCredit: false }, done: true });
    expect(timing.done).toBe(false);
  });

  it('a retry after a timeout goes out on a fresh signal', async () => {
    const { api, clock, wire, sent } = heldApi();
    const result = outcome(api.freeCount());
    clock.advanceBy(10_000);
    await settle();
    clock.advanceBy(125);
    await settle();
    expect(aborted(sent)).toEqual([true, false]);
    wire.release(); // the first has already failed
    await settle();
    expect(result.value).toMatchObject({ freeRemaining: 2 });
  });

  it('a long-lived caller signal holds one listener however many requests race it, and none of them once settled', async () => {
    const { api, wire, sent } = heldApi();
    const caller = new AbortController();
    const { signal } = caller;
    const results = Array.from({ length: 20 }, (_, i) => outcome(api.consume(`op-${i}`, { signal })));
    // One, not 20: Node's leak warning (at 11) stays quiet, and there is one listener to keep.
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    wire.release();
    await settle();
    expect(results.every((result) => result.done)).toBe(true);
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    // What it keeps holds none of the settled requests: an abort now changes nothing of them.
    caller.abort();
    await settle();
    expect(results.every((result) => result.done && result.error === undefined)).toBe(true);
    expect(aborted(sent).some(Boolean)).toBe(false);
  });

  it('a completed request is never aborted afterwards (no abort work after a success)', async () => {
    const { api, wire, sent } = heldApi();
    const controller = new AbortController();
    const result = outcome(api.balance({ signal: controller.signal }));
    wire.release();
    await settle();
    controller.abort();
    await settle();
    expect(result).toEqual({ value: 9, done: true });
    expect(aborted(sent)).toEqual([false]);
  });

  it('the last timeout rejects with the timeout error naming the request', async () => {
    const { api, clock } = heldApi({ policy: { ...fakePolicy(), retries: 0 } });
    const result = outcome(api.balance());
    clock.advanceBy(10_000);
    await settle();
    expect(result.error).toBeInstanceOf(BillingError);
    expect((result.error as BillingError).message).toBe(
      'GET http://billing.test/ai/v1/credit/getBalance timed out after 10000 ms',
    );
  });
});

function fakePolicy() {
  return { random: () => 0.5 };
}
