import { BillingError } from '../../lib/shared/errors';
import { defaultRetryPolicy } from '../../lib/transport/retry-policy';
import { PATHS } from '../../lib/shared/wire';
import { settle } from '../helpers/virtual-clock';
import { authorization, DENIED, fakeApi, outcome } from './api-fixture';

const CANARY = 'canary-5e1d0b77';
// A backend that knows no token: every request gets its 401.
const NOBODY: string[] = [];

// The backend knows only the fresh token (the old one gets its 401); the headers function reads the current one.
function rotatingToken() {
  let token = 'old';
  return {
    headers: () => ({ Authorization: `Bearer ${token}` }),
    fresh: ['fresh'],
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
    const { headers, fresh, rotate } = rotatingToken();
    const onUnauthorized = jest.fn(rotate);
    const onRetry = jest.fn();
    const { api, sent } = fakeApi({ headers, onUnauthorized, onRetry }, fresh);
    const onSend = jest.fn();
    const result = outcome(api.consume('op-1', { onSend }));
    await settle();
    expect(result).toEqual({ value: { kind: 'charged', freeRemaining: 1, isCredit: false }, done: true });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(sent.map(authorization)).toEqual(['Bearer old', 'Bearer fresh']);
    const body = { module: 'generator_poster', external_id: 'op-1' };
    expect(sent.map((request) => request.body)).toEqual([body, body]);
    // The re-send is an attempt of its own for numbering, told with no delay: it waits for onUnauthorized.
    expect(onSend).toHaveBeenCalledTimes(2);
    expect(onRetry.mock.calls).toEqual([
      [{ attempt: 2, delayMs: null, path: PATHS.consume, error: expect.objectContaining({ status: 401 }) }],
    ]);
  });

  it('concurrent requests that hit 401 together share exactly one onUnauthorized call', async () => {
    const { headers, fresh, rotate } = rotatingToken();
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
    const { api, sent } = fakeApi({ headers, onUnauthorized }, fresh);
    const results = [outcome(api.freeCount()), outcome(api.balance()), outcome(api.consume('op-2'))];
    await settle();
    // All three were refused; the one refresh is still pending.
    expect(sent.map(authorization)).toEqual(['Bearer old', 'Bearer old', 'Bearer old']);
    expect(results.map((result) => result.done)).toEqual([false, false, false]);
    release();
    await settle();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(results.map((result) => result.error)).toEqual([undefined, undefined, undefined]);
    expect(results.map((result) => result.done)).toEqual([true, true, true]);
    expect(sent.slice(3).map((request) => [request.path, authorization(request)])).toEqual([
      [PATHS.freeTrialCount, 'Bearer fresh'],
      [PATHS.balance, 'Bearer fresh'],
      [PATHS.consume, 'Bearer fresh'],
    ]);
    expect(sent[5]?.body).toEqual({ module: 'generator_poster', external_id: 'op-2' });
  });

  it('a 401 after the wave has settled starts a new onUnauthorized call', async () => {
    const onUnauthorized = jest.fn();
    const { api } = fakeApi({ onUnauthorized }, NOBODY);
    outcome(api.balance());
    await settle();
    outcome(api.balance());
    await settle();
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
  });

  it('a second 401 rejects with http 401, after one onUnauthorized call and two sends', async () => {
    const onUnauthorized = jest.fn();
    const { api, sent } = fakeApi({ onUnauthorized }, NOBODY);
    const result = outcome(api.consume('op-3'));
    await settle();
    expect(httpError(result.error)).toMatchObject({ code: 'http', status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(2);
  });

  it('the 401 re-send does not use up a retry', async () => {
    const { headers, fresh, rotate } = rotatingToken();
    const policy = { ...defaultRetryPolicy, retries: 1, random: () => 0.5 };
    const { api, clock, backend, sent } = fakeApi({ headers, onUnauthorized: rotate, policy }, fresh);
    backend.failNext(PATHS.balance, 1, DENIED);
    backend.failNext(PATHS.balance, 1, { kind: 'status', status: 503 });
    const result = outcome(api.balance());
    await settle();
    clock.advanceBy(125);
    await settle();
    expect(result).toEqual({ value: 9, done: true });
    expect(sent.map(authorization)).toEqual(['Bearer old', 'Bearer fresh', 'Bearer fresh']);
  });

  it('a rejecting onUnauthorized rejects with the 401 http error, which never quotes what it threw', async () => {
    const onUnauthorized = () => Promise.reject(new Error(`refresh failed for ${CANARY}`));
    const { api, sent } = fakeApi({ onUnauthorized }, NOBODY);
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
    const { api } = fakeApi(
      {
        onUnauthorized: () => {
          throw new Error(CANARY);
        },
      },
      NOBODY,
    );
    const result = outcome(api.balance());
    await settle();
    expect(httpError(result.error)).toMatchObject({ code: 'http', status: 401 });
  });

  it('an onUnauthorized that never settles is bounded by timeoutMs, then the 401 is the answer', async () => {
    const { api, clock, sent } = fakeApi({ onUnauthorized: () => new Promise<void>(() => {}) }, NOBODY);
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
    let release = () => {};
    const onUnauthorized = () =>
      new Promise<void>((resolve) => {
        release = resolve;
      });
    const { api, clock, sent } = fakeApi({ onUnauthorized }, NOBODY);
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
    const { api, backend, sent } = fakeApi({}, NOBODY);
    backend.failNext(PATHS.consume, 1, DENIED);
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
