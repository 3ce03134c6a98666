import { BillingError } from '../../lib/shared/errors';
import type { FetchLike } from '../../lib/shared/types';
import { byMode } from '../helpers/mode';
import { settle } from '../helpers/virtual-clock';
import { fakeApi, outcome } from './api-fixture';

// Issue 27, mutants of lib/transport/request.ts that survived the transport's own specs: what goes
// on the wire, which statuses are answers, what a 403 does with onUnauthorized, and aborts that
// meet a retry.
const BALANCE = 'GET http://billing.test/ai/v1/credit/getBalance';
const ok = (status = 200): FetchLike =>
  jest.fn(() =>
    Promise.resolve(new Response(JSON.stringify({ code: 0, message: 'ok', data: { balance: 9 } }), { status })),
  );

describe('request edges', () => {
  it('only a request with a body says it sends JSON', async () => {
    const { api, sent } = fakeApi();
    await Promise.all([api.balance(), api.consume('op-1')]);
    expect(sent.map((request) => [request.method, request.headers['content-type']])).toEqual([
      ['GET', undefined],
      ['POST', 'application/json'],
    ]);
  });

  it('any 2xx status is an answer: a 299 with an ok envelope resolves', async () => {
    const { api } = fakeApi({ fetch: ok(299) });
    const result = outcome(api.balance());
    await settle();
    expect(result).toEqual({ value: 9, done: true });
  });

  it('a 403 is the answer even with onUnauthorized: no reauthorization, sent once', async () => {
    const fetch = jest.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ code: 403, message: 'forbidden', data: null }), { status: 403 })),
    );
    const onUnauthorized = jest.fn();
    const { api } = fakeApi({ fetch, onUnauthorized });
    const result = outcome(api.balance());
    await settle();
    expect(result.error).toMatchObject({ code: 'http', status: 403 });
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a timeout while the headers function is pending says so, and sends nothing', async () => {
    const fetch = jest.fn(ok());
    const { api, clock } = fakeApi({ fetch, headers: () => new Promise<never>(() => {}), policy: noRetries() });
    const result = outcome(api.balance());
    clock.advanceBy(10_000);
    await settle();
    expect(result.error).toBeInstanceOf(BillingError);
    expect(result.error).toMatchObject({
      code: 'timeout',
      message: byMode(`${BALANCE} timed out after 10000 ms waiting for headers`, `${BALANCE} timed out after 10000 ms`),
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('headers that arrive after the timeout send nothing for that attempt', async () => {
    const fetch = jest.fn(ok());
    let give: (headers: Record<string, string>) => void = () => {};
    const headers = () => new Promise<Record<string, string>>((resolve) => (give = resolve));
    const { api, clock } = fakeApi({ fetch, headers, policy: noRetries() });
    const result = outcome(api.balance());
    clock.advanceBy(10_000);
    await settle();
    give({ Authorization: 'Bearer late' });
    await settle();
    expect(result.error).toMatchObject({ code: 'timeout' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('aborting a request in flight rejects aborted and schedules no retry', async () => {
    const onRetry = jest.fn();
    const fetch: FetchLike = (_, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const { api } = fakeApi({ fetch, onRetry });
    const controller = new AbortController();
    const result = outcome(api.balance({ signal: controller.signal }));
    await settle();
    controller.abort();
    await settle();
    expect(result.error).toMatchObject({ code: 'aborted' });
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('a caller that aborts from the retry hook gets aborted at once, not after the delay', async () => {
    const controller = new AbortController();
    const fetch = jest.fn(() => Promise.resolve(new Response('', { status: 503 })));
    const { api } = fakeApi({ fetch, onRetry: () => controller.abort() });
    const result = outcome(api.balance({ signal: controller.signal }));
    await settle();
    expect(result.error).toMatchObject({ code: 'aborted' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  // Issue 30: the branches of attempt.ts that only spec/client reached.
  it('a headers function that throws: invalid_argument without what it threw, nothing sent, not retried', async () => {
    const fetch = ok();
    const headers = jest.fn(() => {
      throw new Error('vault down: Bearer tok-5e1f0c9a7d');
    });
    const { api } = fakeApi({ fetch, headers });
    const result = outcome(api.balance());
    await settle();
    expect(result.error).toMatchObject({
      code: 'invalid_argument',
      message: byMode('The headers option function threw or rejected', 'invalid headers'),
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(headers).toHaveBeenCalledTimes(1);
  });

  it('a 2xx body that decodes to the wrong data is a decode error naming the request; a backend code stays backend', async () => {
    const answering = (envelope: object): FetchLike =>
      jest.fn(() => Promise.resolve(new Response(JSON.stringify(envelope), { status: 200 })));
    const wrong = fakeApi({ fetch: answering({ code: 0, message: 'ok', data: { balance: 'nine' } }) });
    const malformed = outcome(wrong.api.balance());
    const refused = fakeApi({ fetch: answering({ code: 50001, message: 'no', data: null }) });
    const backend = outcome(refused.api.balance());
    await settle();
    expect(malformed.error).toMatchObject({
      code: 'decode',
      message: byMode(
        `Malformed response body on ${BALANCE} (HTTP 200): balance is not a number >= 0`,
        `Malformed response body on ${BALANCE} (HTTP 200)`,
      ),
    });
    expect(backend.error).toMatchObject({ code: 'backend', backendCode: 50001 });
  });
});

function noRetries() {
  return { retries: 0, random: () => 0.5 };
}
