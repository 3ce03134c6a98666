import { BillingError } from '../../lib';
import { REFERENCE_PATHS as PATHS, type Fault } from '../../lib/testing';
import { settle } from '../helpers/virtual-clock';
import { failAll, fakeApi, outcome } from './api-fixture';

const UNAVAILABLE: Fault = { kind: 'status', status: 503 };

describe('onRetry: each scheduled retry is told', () => {
  it('with the number of the attempt about to be made, the delay and the path; retries resend the same id', async () => {
    const onRetry = jest.fn();
    const { api, clock, backend, sent } = fakeApi({ onRetry });
    backend.failNext(PATHS.consume, 2, UNAVAILABLE);
    const onSend = jest.fn();
    const result = outcome(api.consume('op-r', { onSend }));
    await settle();
    // Full jitter pinned at half the ceiling: 250 ms, then 500 ms.
    const unavailable = expect.objectContaining({ code: 'http', status: 503 });
    expect(onRetry.mock.calls).toEqual([[{ attempt: 2, delayMs: 125, path: PATHS.consume, error: unavailable }]]);
    clock.advanceBy(125);
    await settle();
    expect(onRetry.mock.calls[1]).toEqual([{ attempt: 3, delayMs: 250, path: PATHS.consume, error: unavailable }]);
    clock.advanceBy(250);
    await settle();
    expect(result).toEqual({ value: { kind: 'charged', freeRemaining: 1, isCredit: false }, done: true });
    expect(onSend).toHaveBeenCalledTimes(3);
    expect(new Set(sent.map((request) => JSON.stringify(request.body)))).toEqual(
      new Set([JSON.stringify({ module: 'generator_poster', external_id: 'op-r' })]),
    );
  });

  it("carries the server's Retry-After as the delay", async () => {
    const onRetry = jest.fn();
    const { api, clock, backend } = fakeApi({ onRetry });
    backend.failNext(PATHS.balance, 1, { kind: 'status', status: 429, retryAfter: '2' });
    const result = outcome(api.balance());
    await settle();
    expect(onRetry).toHaveBeenCalledWith({
      attempt: 2,
      delayMs: 2_000,
      path: PATHS.balance,
      error: expect.objectContaining({ status: 429 }),
    });
    clock.advanceBy(1_999);
    await settle();
    expect(result.done).toBe(false);
    clock.advanceBy(1);
    await settle();
    expect(result).toEqual({ value: 9, done: true });
  });

  it('is not called for a failure that is not retried, nor once the retries are used up', async () => {
    const onRetry = jest.fn();
    const { api, clock, backend } = fakeApi({ onRetry });
    failAll(backend, 3, UNAVAILABLE);
    const result = outcome(api.freeCount());
    for (let i = 0; i < 3; i++) {
      await settle();
      clock.advanceBy(1_000);
    }
    expect((result.error as BillingError).status).toBe(503);
    expect(onRetry).toHaveBeenCalledTimes(2);
    const other = jest.fn();
    const refusing = fakeApi({ onRetry: other });
    refusing.backend.failNext(PATHS.balance, 1, { kind: 'status', status: 400 });
    outcome(refusing.api.balance());
    await settle();
    expect(other).not.toHaveBeenCalled();
  });

  it('aborting during a retry delay cancels the retry, rejects aborted and leaves no timer', async () => {
    const { api, clock, backend, sent } = fakeApi();
    failAll(backend, 3, UNAVAILABLE);
    const controller = new AbortController();
    const result = outcome(api.balance({ signal: controller.signal }));
    await settle();
    expect(clock.pending).toBe(1);
    controller.abort();
    expect(clock.pending).toBe(0);
    await settle();
    expect(result.error).toMatchObject({ code: 'aborted' });
    clock.advanceBy(10_000);
    await settle();
    expect(sent).toHaveLength(1);
  });

  it('counts an attempt that timed out waiting for its headers function', async () => {
    const onRetry = jest.fn();
    const { api, clock, sent } = fakeApi({ onRetry, headers: () => new Promise<Record<string, string>>(() => {}) });
    const result = outcome(api.balance());
    clock.advanceBy(10_000);
    await settle();
    expect(onRetry.mock.calls).toEqual([
      [{ attempt: 2, delayMs: 125, path: PATHS.balance, error: expect.objectContaining({ code: 'timeout' }) }],
    ]);
    expect(result.done).toBe(false);
    expect(sent).toHaveLength(0);
  });
});
