import { BillingError } from '../../lib/errors';
import { PATHS } from '../../lib/wire';
import { settle } from '../helpers/virtual-clock';
import { fakeApi, fakeFetch, okFor, outcome, type Answer } from './fake-api';

const UNAVAILABLE: Answer = { status: 503, body: { code: 503, message: 'busy', data: null } };

describe('onRetry: each scheduled retry is told', () => {
  it('with the number of the attempt about to be made, the delay and the path; retries resend the same id', async () => {
    const answers = [UNAVAILABLE, UNAVAILABLE];
    const { fetch, sent } = fakeFetch((request, index) => answers[index] ?? okFor(request.path));
    const onRetry = jest.fn();
    const { api, clock } = fakeApi(fetch, { onRetry });
    const onSend = jest.fn();
    const result = outcome(api.consume('op-r', { onSend }));
    await settle();
    // Full jitter pinned at half the ceiling: 250 ms, then 500 ms.
    expect(onRetry.mock.calls).toEqual([[{ attempt: 2, delayMs: 125, path: PATHS.consume }]]);
    clock.advanceBy(125);
    await settle();
    expect(onRetry.mock.calls[1]).toEqual([{ attempt: 3, delayMs: 250, path: PATHS.consume }]);
    clock.advanceBy(250);
    await settle();
    expect(result).toEqual({ value: { kind: 'charged', freeRemaining: 1, isCredit: false }, done: true });
    expect(onSend).toHaveBeenCalledTimes(3);
    expect(new Set(sent.map((request) => JSON.stringify(request.body)))).toEqual(
      new Set([JSON.stringify({ module: 'generator_poster', external_id: 'op-r' })]),
    );
  });

  it("carries the server's Retry-After as the delay", async () => {
    const answers: Answer[] = [{ status: 429, headers: { 'retry-after': '2' } }];
    const { fetch } = fakeFetch((request, index) => answers[index] ?? okFor(request.path));
    const onRetry = jest.fn();
    const { api, clock } = fakeApi(fetch, { onRetry });
    const result = outcome(api.balance());
    await settle();
    expect(onRetry).toHaveBeenCalledWith({ attempt: 2, delayMs: 2_000, path: PATHS.balance });
    clock.advanceBy(1_999);
    await settle();
    expect(result.done).toBe(false);
    clock.advanceBy(1);
    await settle();
    expect(result).toEqual({ value: 9, done: true });
  });

  it('is not called for a failure that is not retried, nor once the retries are used up', async () => {
    const { fetch } = fakeFetch(() => UNAVAILABLE);
    const onRetry = jest.fn();
    const { api, clock } = fakeApi(fetch, { onRetry });
    const result = outcome(api.freeCount());
    for (let i = 0; i < 3; i++) {
      await settle();
      clock.advanceBy(1_000);
    }
    expect((result.error as BillingError).status).toBe(503);
    expect(onRetry).toHaveBeenCalledTimes(2);
    const { fetch: refusing } = fakeFetch(() => ({ status: 400 }));
    const other = jest.fn();
    outcome(fakeApi(refusing, { onRetry: other }).api.balance());
    await settle();
    expect(other).not.toHaveBeenCalled();
  });

  it('a throwing onRetry never breaks the request', async () => {
    const answers = [UNAVAILABLE];
    const { fetch } = fakeFetch((request, index) => answers[index] ?? okFor(request.path));
    const { api, clock } = fakeApi(fetch, {
      onRetry: () => {
        throw new Error('hook failed');
      },
    });
    const result = outcome(api.balance());
    await settle();
    clock.advanceBy(125);
    await settle();
    expect(result).toEqual({ value: 9, done: true });
  });

  it('aborting during a retry delay cancels the retry, rejects aborted and leaves no timer', async () => {
    const { fetch, sent } = fakeFetch(() => UNAVAILABLE);
    const { api, clock } = fakeApi(fetch);
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
    const { fetch, sent } = fakeFetch((request) => okFor(request.path));
    const onRetry = jest.fn();
    const { api, clock } = fakeApi(fetch, { onRetry, headers: () => new Promise<Record<string, string>>(() => {}) });
    const result = outcome(api.balance());
    clock.advanceBy(10_000);
    await settle();
    expect(onRetry.mock.calls).toEqual([[{ attempt: 2, delayMs: 125, path: PATHS.balance }]]);
    expect(result.done).toBe(false);
    expect(sent).toHaveLength(0);
  });
});
