import { createClient } from '../../../lib';
import { createReferenceBackend, REFERENCE_PATHS } from '../../../lib/testing';

// What Jest's jsdom environment lacks (issue 18): the in-process backend must not need any of it.
const MISSING = ['Response', 'Request', 'Headers', 'ReadableStream', 'TextEncoder', 'TextDecoder', 'structuredClone'];
const saved = new Map<string, PropertyDescriptor>();

beforeAll(() => {
  for (const name of MISSING) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    if (descriptor !== undefined) saved.set(name, descriptor);
    delete (globalThis as Record<string, unknown>)[name];
  }
});
afterAll(() => {
  for (const [name, descriptor] of saved) Object.defineProperty(globalThis, name, descriptor);
});

const alice = { token: 'alice', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 };
const auth = { Authorization: 'Bearer alice' };

describe('createReferenceBackend where fetch bodies, TextEncoder and structuredClone are missing', () => {
  test('a client over backend.fetch reads usage once per call and charges a non-ASCII id', async () => {
    expect(typeof (globalThis as Record<string, unknown>).Response).toBe('undefined');
    const backend = createReferenceBackend({ users: [alice] });
    const client = createClient({ baseUrl: 'http://billing.test', appKey: 'a', headers: auth, fetch: backend.fetch });
    await expect(client.billing.getUsage()).resolves.toMatchObject({ freeRemaining: 1, creditsBalance: 10 });
    expect(backend.requests().map((request) => request.path)).toEqual(
      expect.arrayContaining([REFERENCE_PATHS.freeTrialCount, REFERENCE_PATHS.balance]),
    );
    expect(backend.requests()).toHaveLength(2);
    await client.billing.consume({ externalId: 'export-é-😀' });
    expect(backend.charges().map((charge) => charge.externalId)).toEqual(['export-é-😀']);
    client.billing.dispose();
    await backend.close();
  });

  test('an answer reads like a Response, once', async () => {
    const backend = createReferenceBackend({ users: [alice] });
    const answer = await backend.fetch(`http://billing.test${REFERENCE_PATHS.balance}`, { headers: auth });
    expect([answer.status, answer.ok, answer.headers.get('Content-Type')]).toEqual([
      200,
      true,
      'application/json; charset=utf-8',
    ]);
    expect(await answer.json()).toMatchObject({ code: 0, data: { balance: 10 } });
    await expect(answer.text()).rejects.toThrow(TypeError);
    await backend.close();
  });

  test('a body that is not UTF-8 gets 400, as over HTTP', async () => {
    const backend = createReferenceBackend({ users: [alice] });
    const answer = await backend.fetch(`http://billing.test${REFERENCE_PATHS.consume}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: Uint8Array.of(0x7b, 0xff, 0x7d),
    });
    expect(answer.status).toBe(400);
    await backend.close();
  });

  test('a stalled body fails when the request aborts, and when the backend closes', async () => {
    const backend = createReferenceBackend({ users: [alice] });
    backend.failNext(REFERENCE_PATHS.balance, 2, { kind: 'stall' });
    const controller = new AbortController();
    const url = `http://billing.test${REFERENCE_PATHS.balance}`;
    const aborted = await backend.fetch(url, { headers: auth, signal: controller.signal });
    const closed = await backend.fetch(url, { headers: auth });
    const abortedText = aborted.text();
    const closedText = closed.text();
    controller.abort();
    await expect(abortedText).rejects.toMatchObject({ name: 'AbortError' });
    await backend.close();
    await expect(closedText).rejects.toThrow('terminated');
  });

  test('the request log is a copy', async () => {
    const backend = createReferenceBackend({ users: [alice] });
    await backend.fetch(`http://billing.test${REFERENCE_PATHS.balance}?__proto__=x`, { headers: auth });
    const [record] = backend.requests();
    expect(Object.keys(record?.query ?? {})).toEqual(['__proto__']);
    if (record !== undefined) record.query['__proto__'] = 'changed';
    expect(backend.requests()[0]?.query['__proto__']).toBe('x');
    await backend.close();
  });
});
