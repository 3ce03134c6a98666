import { request as httpRequest } from 'node:http';
import {
  createReferenceBackend,
  REFERENCE_PATHS,
  startReferenceBackend,
  type Fault,
  type ReferenceUser,
} from '../../lib/testing';
import {
  MODULE,
  TRANSPORTS,
  expectErrorBody,
  makeUser,
  openBackend,
  rawRequest,
  sleep,
  type ContractBackend,
  type RawOptions,
} from './http-helpers';
import { until, within } from '../helpers/waiting';

const CONSUME = REFERENCE_PATHS.consume;
// Only the timers are Jest's in the tests that fake them: the waits on I/O keep real time.
const TIMERS_ONLY: FakeTimersConfig = {
  doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate'],
};
afterEach(() => jest.useRealTimers());

/** Lets sockets and promise jobs run (real I/O turns), without moving Jest's clock. */
async function settleIo(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

function consumeRequest(token: string, externalId: string): RawOptions {
  return {
    method: 'POST',
    path: CONSUME,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ module: MODULE, external_id: externalId }),
  };
}

function balanceRequest(token: string): RawOptions {
  return { path: REFERENCE_PATHS.balance, headers: { Authorization: `Bearer ${token}` } };
}

describe.each(TRANSPORTS)('reference backend: injected faults (%s)', (transport) => {
  let backend: ContractBackend;
  let user: ReferenceUser;
  beforeAll(async () => {
    backend = await openBackend(transport);
  });
  afterAll(() => backend.close());
  beforeEach(() => {
    user = makeUser({ freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 30 });
    backend.addUser(user);
    backend.clearLog();
  });

  function ownCharges(): number {
    return backend.charges().filter((c) => c.token === user.token).length;
  }

  test('drop: the connection closes without an answer and nothing is applied', async () => {
    const before = backend.getUser(user.token);
    backend.failNext(CONSUME, 1, { kind: 'drop' });
    const dropped = expect(rawRequest(backend, consumeRequest(user.token, 'd-1'))).rejects;
    // In-process, the rejection a reset socket gives fetch: a TypeError.
    if (transport === 'HTTP') await dropped.toThrow();
    else await dropped.toThrow(TypeError);
    expect(backend.getUser(user.token)).toEqual(before);
    expect(ownCharges()).toBe(0);
    expect(backend.requests()).toEqual([expect.objectContaining({ path: CONSUME, status: null, fault: 'drop' })]);
    // Only one request was faulted.
    expect((await rawRequest(backend, consumeRequest(user.token, 'd-1'))).status).toBe(200);
    expect(ownCharges()).toBe(1);
  });

  test('n counts requests: two drops, then a normal answer', async () => {
    backend.failNext(REFERENCE_PATHS.balance, 2, { kind: 'drop' });
    expect(backend.pendingFaults(REFERENCE_PATHS.balance)).toBe(2);
    await expect(rawRequest(backend, balanceRequest(user.token))).rejects.toThrow();
    await expect(rawRequest(backend, balanceRequest(user.token))).rejects.toThrow();
    const answer = await rawRequest(backend, balanceRequest(user.token));
    expect(JSON.parse(answer.text)).toMatchObject({ code: 0, data: { balance: 30 } });
    expect(backend.pendingFaults(REFERENCE_PATHS.balance)).toBe(0);
  });

  test('dropAfterApply: charged, unanswered; a retry with the same external_id replays', async () => {
    backend.failNext(CONSUME, 1, { kind: 'dropAfterApply' });
    await expect(rawRequest(backend, consumeRequest(user.token, 'daa-1'))).rejects.toThrow();
    expect(backend.charges().filter((c) => c.token === user.token)).toEqual([
      expect.objectContaining({ externalId: 'daa-1', kind: 'free' }),
    ]);
    expect(backend.getUser(user.token, MODULE).freeRemaining).toBe(0);
    expect(backend.requests()[0]).toMatchObject({ status: null, code: 0, fault: 'dropAfterApply' });
    const retry = await rawRequest(backend, consumeRequest(user.token, 'daa-1'));
    expect(JSON.parse(retry.text)).toMatchObject({ code: 0, data: { free_remaining: 0, is_credit: false } });
    expect(ownCharges()).toBe(1);
  });

  test('status 503 with Retry-After: JSON error body, nothing applied', async () => {
    backend.failNext(CONSUME, 1, { kind: 'status', status: 503, retryAfter: '2' });
    const answer = await rawRequest(backend, consumeRequest(user.token, 's-1'));
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('2');
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expectErrorBody(JSON.parse(answer.text), 503);
    expect(ownCharges()).toBe(0);
    expect(backend.getUser(user.token, MODULE).freeRemaining).toBe(1);
  });

  test('status 429 without retryAfter sends no Retry-After header', async () => {
    backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'status', status: 429 });
    const answer = await rawRequest(backend, balanceRequest(user.token));
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBeUndefined();
    expectErrorBody(JSON.parse(answer.text), 429);
  });

  test('faults on one path queue in order and leave other paths alone', async () => {
    backend.failNext(CONSUME, 1, { kind: 'status', status: 503 });
    backend.failNext(CONSUME, 1, { kind: 'status', status: 429 });
    expect((await rawRequest(backend, balanceRequest(user.token))).status).toBe(200);
    const statuses = [];
    for (const id of ['q-1', 'q-2', 'q-3'])
      statuses.push((await rawRequest(backend, consumeRequest(user.token, id))).status);
    expect(statuses).toEqual([503, 429, 200]);
  });

  test('a fault path matches whatever the query string', async () => {
    backend.failNext(REFERENCE_PATHS.freeTrialCount, 1, { kind: 'status', status: 500 });
    const answer = await rawRequest(backend, {
      path: `${REFERENCE_PATHS.freeTrialCount}?module=${MODULE}`,
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(answer.status).toBe(500);
  });

  test('delay: answers normally after the delay, applying only then', async () => {
    // The backend's delay runs on Jest's clock: held exactly as long as the test says, whatever the load.
    jest.useFakeTimers(TIMERS_ONLY);
    backend.failNext(CONSUME, 1, { kind: 'delay', ms: 300 });
    let answered = false;
    const pending = rawRequest(backend, consumeRequest(user.token, 'delay-1')).finally(() => (answered = true));
    await until(() => backend.requests().length === 1, 'the consume to reach the backend');
    jest.advanceTimersByTime(299);
    await settleIo();
    expect(answered).toBe(false);
    expect(ownCharges()).toBe(0);
    jest.advanceTimersByTime(1);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 0, data: { free_remaining: 0, is_credit: false } });
    expect(ownCharges()).toBe(1);
  });

  test('malformed: the raw body as given, status 200 and a JSON content type by default', async () => {
    backend.failNext(CONSUME, 1, { kind: 'malformed', body: '<html>Bad gateway</html>' });
    const answer = await rawRequest(backend, consumeRequest(user.token, 'm-1'));
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('<html>Bad gateway</html>');
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(ownCharges()).toBe(0);
  });

  test('malformed with a status and a content type', async () => {
    backend.failNext(REFERENCE_PATHS.balance, 1, {
      kind: 'malformed',
      body: '{"code":0,"da',
      status: 502,
      contentType: 'text/html',
    });
    const answer = await rawRequest(backend, balanceRequest(user.token));
    expect(answer).toMatchObject({ status: 502, text: '{"code":0,"da' });
    expect(answer.headers['content-type']).toBe('text/html');
  });

  test.each<[string, Fault, number]>([
    ['n of 0', { kind: 'drop' }, 0],
    ['fractional n', { kind: 'drop' }, 1.5],
    ['status outside 400..599', { kind: 'status', status: 200 }, 1],
    ['negative delay', { kind: 'delay', ms: -1 }, 1],
    ['malformed status 99', { kind: 'malformed', body: 'x', status: 99 }, 1],
    ['unknown kind', { kind: 'explode' } as unknown as Fault, 1],
  ])('failNext rejects %s and queues nothing', (_name, fault, n) => {
    expect(() => backend.failNext(CONSUME, n, fault)).toThrow(TypeError);
    expect(backend.pendingFaults(CONSUME)).toBe(0);
  });

  test.each(['ai/v1/credit/getBalance', '/ai/v1/credit/getBalance?x=1'])('failNext rejects the path %s', (path) => {
    expect(() => backend.failNext(path, 1, { kind: 'drop' })).toThrow(TypeError);
  });
});

describe('reference backend: faults that outlive the test (HTTP)', () => {
  test('stall: headers and a partial body, never finished, until close() ends it', async () => {
    const user = makeUser();
    const backend = await startReferenceBackend({ users: [user] });
    backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'stall' });
    const received: string[] = [];
    const ended = new Promise<string>((resolve) => {
      const req = httpRequest(
        `${backend.url}${REFERENCE_PATHS.balance}`,
        { headers: { Authorization: `Bearer ${user.token}` }, agent: false },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', (chunk: Buffer) => received.push(chunk.toString()));
          res.on('end', () => resolve('end'));
          res.on('aborted', () => resolve('aborted'));
          res.on('error', () => resolve('error'));
        },
      );
      req.on('error', () => resolve('error'));
      req.end();
    });
    await until(() => received.length > 0, 'the start of the stalled body');
    expect(received.join('')).toBe('{"code":0,');
    const outcome = await Promise.race([ended, sleep(100).then(() => 'still open')]);
    expect(outcome).toBe('still open');
    // Room for any machine: only a close() that waits for the stalled response fails.
    await within(backend.close(), 'close() with a stalled response');
    expect(await ended).not.toBe('end');
    expect(received.join('')).toBe('{"code":0,');
  });
});

describe('reference backend: faults that outlive the test (in-process fetch)', () => {
  const balanceInit = (token: string, signal?: AbortSignal): RequestInit => ({
    headers: { Authorization: `Bearer ${token}` },
    ...(signal === undefined ? {} : { signal }),
  });

  test('stall: headers and a partial body, never finished, until the signal aborts', async () => {
    const user = makeUser();
    const backend = createReferenceBackend({ users: [user] });
    backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'stall' });
    const controller = new AbortController();
    const response = await backend.fetch(
      `http://billing.test${REFERENCE_PATHS.balance}`,
      balanceInit(user.token, controller.signal),
    );
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('{"code":0,');
    const rest = reader.read();
    const outcome = await Promise.race([rest.then(() => 'more'), sleep(100).then(() => 'still open')]);
    expect(outcome).toBe('still open');
    controller.abort();
    await expect(rest).rejects.toMatchObject({ name: 'AbortError' });
    expect(backend.requests()).toEqual([expect.objectContaining({ status: 200, fault: 'stall' })]);
  });

  test('stall: close() ends the body with a TypeError, as a destroyed socket does', async () => {
    const user = makeUser();
    const backend = createReferenceBackend({ users: [user] });
    backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'stall' });
    const response = await backend.fetch(`http://billing.test${REFERENCE_PATHS.balance}`, balanceInit(user.token));
    const text = response.text();
    await backend.close();
    await expect(text).rejects.toThrow(TypeError);
    await expect(
      backend.fetch(`http://billing.test${REFERENCE_PATHS.balance}`, balanceInit(user.token)),
    ).rejects.toThrow(TypeError);
  });

  test('an abort while a delay runs rejects at once; the backend still applies what it received', async () => {
    // The delay runs on Jest's clock: it cannot end on its own while the test looks.
    jest.useFakeTimers(TIMERS_ONLY);
    const user = makeUser({ freeRemaining: 1 });
    const backend = createReferenceBackend({ users: [user] });
    backend.failNext(CONSUME, 1, { kind: 'delay', ms: 200 });
    const controller = new AbortController();
    const { method, headers, body } = consumeRequest(user.token, 'aborted');
    const pending = backend.fetch(`http://billing.test${CONSUME}`, {
      method,
      headers: headers as Record<string, string>,
      body: body as string,
      signal: controller.signal,
    });
    await until(() => backend.requests().length === 1, 'the consume to reach the backend');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(backend.charges()).toEqual([]);
    jest.advanceTimersByTime(200);
    await until(() => backend.charges().length === 1, 'the delayed consume to be applied');
    expect(backend.charges()).toEqual([expect.objectContaining({ externalId: 'aborted' })]);
    expect(backend.requests()).toEqual([expect.objectContaining({ status: null, code: 0, fault: 'delay' })]);
  });
});

describe.each(TRANSPORTS)('reference backend: close() and pending delays (%s)', (transport) => {
  test('close() cancels a pending delay: the request fails, no timer is left', async () => {
    // The delay is a real timer even under fake timers (lib/testing/real-timers.ts): the spies see
    // it armed and cleared. One that close() left running would keep the process alive a minute.
    const set = jest.spyOn(globalThis, 'setTimeout');
    const clear = jest.spyOn(globalThis, 'clearTimeout');
    try {
      const user = makeUser({ freeRemaining: 1 });
      const backend = await openBackend(transport, { users: [user] });
      backend.failNext(CONSUME, 1, { kind: 'delay', ms: 60_000 });
      const pending = rawRequest(backend, consumeRequest(user.token, 'late'));
      const outcome = pending.then(
        () => 'answered',
        () => 'failed',
      );
      // The delay's timer is set as the request arrives: wait for it, not for a time.
      const delayTimer = () => set.mock.results[set.mock.calls.findIndex(([, ms]) => ms === 60_000)];
      while (delayTimer() === undefined) await new Promise((resolve) => setImmediate(resolve));
      expect(backend.requests().map((record) => record.path)).toEqual([CONSUME]);
      expect(clear).not.toHaveBeenCalledWith(delayTimer()!.value);
      // A close() that waited for the delay would take a minute.
      await backend.close();
      expect(clear).toHaveBeenCalledWith(delayTimer()!.value);
      await expect(outcome).resolves.toBe('failed');
      expect(backend.charges()).toEqual([]);
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
  });
});
