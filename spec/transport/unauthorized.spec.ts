import { BillingError } from '../../lib/errors';
import { defaultRetryPolicy } from '../../lib/transport/retry-policy';
import { PATHS } from '../../lib/wire';
import { settle } from '../helpers/virtual-clock';
import { fakeApi, fakeFetch, okFor, outcome, type Answer, type Sent } from './fake-api';

const DENIED: Answer = { status: 401, body: { code: 401, message: 'token expired', data: null } };
const CANARY = 'canary-5e1d0b77';

// A backend that accepts only the fresh token; the headers function reads the current one.
function rotatingToken() {
  let token = 'old';
  return {
    headers: () => ({ Authorization: `Bearer ${token}` }),
    acceptFresh: (sent: Sent): Answer => (sent.authorization === 'Bearer fresh' ? okFor(sent.path) : DENIED),
    rotate: () => {
      token = 'fresh';
    },
  };
}

function httpError(error: unknown): BillingError {
  if (!(error instanceof BillingError)) throw new Error(`expected a BillingError, got ${String(error)}`);
  return error;
}

describe('401 recovery (onUnauthorized)', () => {
  it('a 401 awaits onUnauthorized once, then sends the same consume again with freshly resolved headers', async () => {
    const { headers, acceptFresh, rotate } = rotatingToken();
    const { fetch, sent } = fakeFetch(acceptFresh);
    const onUnauthorized = jest.fn(rotate);
    const onRetry = jest.fn();
    const { api } = fakeApi(fetch, { headers, onUnauthorized, onRetry });
    const onSend = jest.fn();
    const result = outcome(api.consume('op-1', { onSend }));
    await settle();
    expect(result).toEqual({ value: { kind: 'charged', freeRemaining: 1, isCredit: false }, done: true });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(sent.map((request) => request.authorization)).toEqual(['Bearer old', 'Bearer fresh']);
    const body = { module: 'generator_poster', external_id: 'op-1' };
    expect(sent.map((request) => request.body)).toEqual([body, body]);
    // The re-send is an attempt of its own for numbering, but not a retry.
    expect(onSend).toHaveBeenCalledTimes(2);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('concurrent requests that hit 401 together share exactly one onUnauthorized call', async () => {
    const { headers, acceptFresh, rotate } = rotatingToken();
    const { fetch, sent } = fakeFetch(acceptFresh);
    let release = () => {};
    const onUnauthorized = jest.fn(
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            rotate();
            resolve();
          };
        }),
    );
    const { api } = fakeApi(fetch, { headers, onUnauthorized });
    const results = [outcome(api.freeCount()), outcome(api.balance()), outcome(api.consume('op-2'))];
    await settle();
    // All three were refused; the one refresh is still pending.
    expect(sent.map((request) => request.authorization)).toEqual(['Bearer old', 'Bearer old', 'Bearer old']);
    expect(results.map((result) => result.done)).toEqual([false, false, false]);
    release();
    await settle();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(results.map((result) => result.error)).toEqual([undefined, undefined, undefined]);
    expect(results.map((result) => result.done)).toEqual([true, true, true]);
    expect(sent.slice(3).map((request) => [request.path, request.authorization])).toEqual([
      [PATHS.freeTrialCount, 'Bearer fresh'],
      [PATHS.balance, 'Bearer fresh'],
      [PATHS.consume, 'Bearer fresh'],
    ]);
    expect(sent[5]?.body).toEqual({ module: 'generator_poster', external_id: 'op-2' });
  });

  it('a 401 after the wave has settled starts a new onUnauthorized call', async () => {
    const { fetch } = fakeFetch(() => DENIED);
    const onUnauthorized = jest.fn();
    const { api } = fakeApi(fetch, { onUnauthorized });
    outcome(api.balance());
    await settle();
    outcome(api.balance());
    await settle();
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
  });

  it('a second 401 rejects with http 401, after one onUnauthorized call and two sends', async () => {
    const { fetch, sent } = fakeFetch(() => DENIED);
    const onUnauthorized = jest.fn();
    const { api } = fakeApi(fetch, { onUnauthorized });
    const result = outcome(api.consume('op-3'));
    await settle();
    expect(httpError(result.error)).toMatchObject({ code: 'http', status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(2);
  });

  it('the 401 re-send does not use up a retry', async () => {
    const { headers, acceptFresh, rotate } = rotatingToken();
    const answers: Answer[] = [DENIED, { status: 503 }];
    const { fetch, sent } = fakeFetch((request, index) => answers[index] ?? acceptFresh(request));
    const policy = { ...defaultRetryPolicy, retries: 1, random: () => 0.5 };
    const { api, clock } = fakeApi(fetch, { headers, onUnauthorized: rotate, policy });
    const result = outcome(api.balance());
    await settle();
    clock.advanceBy(125);
    await settle();
    expect(result).toEqual({ value: 9, done: true });
    expect(sent.map((request) => request.authorization)).toEqual(['Bearer old', 'Bearer fresh', 'Bearer fresh']);
  });

  it('a rejecting onUnauthorized rejects with the 401 http error, which never quotes what it threw', async () => {
    const { fetch, sent } = fakeFetch(() => DENIED);
    const onUnauthorized = () => Promise.reject(new Error(`refresh failed for ${CANARY}`));
    const { api } = fakeApi(fetch, { onUnauthorized });
    const result = outcome(api.balance());
    await settle();
    const error = httpError(result.error);
    expect(error).toMatchObject({ code: 'http', status: 401 });
    expect(JSON.stringify({ message: error.message, stack: error.stack, cause: String(error.cause) })).not.toContain(
      CANARY,
    );
    expect(sent).toHaveLength(1);
  });

  it('a throwing onUnauthorized rejects the same way', async () => {
    const { fetch } = fakeFetch(() => DENIED);
    const { api } = fakeApi(fetch, {
      onUnauthorized: () => {
        throw new Error(CANARY);
      },
    });
    const result = outcome(api.balance());
    await settle();
    expect(httpError(result.error)).toMatchObject({ code: 'http', status: 401 });
  });

  it('an onUnauthorized that never settles is bounded by timeoutMs, then the 401 is the answer', async () => {
    const { fetch, sent } = fakeFetch(() => DENIED);
    const { api, clock } = fakeApi(fetch, { onUnauthorized: () => new Promise<void>(() => {}) });
    const result = outcome(api.balance());
    await settle();
    clock.advanceBy(9_999);
    expect(result.done).toBe(false);
    clock.advanceBy(1);
    await settle();
    expect(httpError(result.error)).toMatchObject({ code: 'http', status: 401 });
    expect(sent).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });

  it('aborting while onUnauthorized is pending sends nothing more, rejects aborted and leaves no timer', async () => {
    const { fetch, sent } = fakeFetch(() => DENIED);
    let release = () => {};
    const onUnauthorized = () =>
      new Promise<void>((resolve) => {
        release = resolve;
      });
    const { api, clock } = fakeApi(fetch, { onUnauthorized });
    const controller = new AbortController();
    const result = outcome(api.balance({ signal: controller.signal }));
    await settle();
    controller.abort();
    expect(clock.pending).toBe(0);
    await settle();
    expect(result.error).toMatchObject({ code: 'aborted' });
    release();
    await settle();
    expect(sent).toHaveLength(1);
  });

  it('without the option a 401 rejects at once, as before', async () => {
    const { fetch, sent } = fakeFetch(() => DENIED);
    const { api } = fakeApi(fetch);
    const result = outcome(api.consume('op-4'));
    await settle();
    const error = httpError(result.error);
    expect(error).toMatchObject({ code: 'http', status: 401 });
    expect(error.message).toBe(
      `HTTP 401 on POST http://billing.test${PATHS.consume}: token expired; check the headers option (credentials)`,
    );
    expect(sent).toHaveLength(1);
  });
});
