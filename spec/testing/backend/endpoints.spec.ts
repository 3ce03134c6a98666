import { BACKEND_CODES, startReferenceBackend } from '../../../lib/testing';
import {
  MODULE,
  TRANSPORTS,
  getBalance,
  getCount,
  makeUser,
  openBackend,
  postConsume,
  type ContractBackend,
} from '../http-helpers';

describe('reference backend: the server', () => {
  test('url is http://127.0.0.1:<port> without a trailing slash', async () => {
    const backend = await startReferenceBackend();
    try {
      expect(backend.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(backend.url).toBe(`http://127.0.0.1:${backend.port}`);
      expect(backend.port).toBeGreaterThan(0);
    } finally {
      await backend.close();
    }
  });
});

describe.each(TRANSPORTS)('reference backend: the three calls (%s)', (transport) => {
  let backend: ContractBackend;
  beforeAll(async () => {
    backend = await openBackend(transport);
  });
  afterAll(() => backend.close());

  function addUser(overrides: Parameters<typeof makeUser>[0] = {}): string {
    const user = makeUser(overrides);
    backend.addUser(user);
    return user.token;
  }

  test('GET free_trial/count answers exactly the four fields, JSON, HTTP 200', async () => {
    const token = addUser({ freeRemaining: 1, freeTotal: 3, creditsPerUse: 2.5 });
    const answer = await getCount(backend, token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      code: 0,
      message: expect.any(String),
      data: { is_enabled: true, free_remaining: 1, free_total: 3, credits_per_use: 2.5 },
    });
  });

  test('is_enabled is reported as configured', async () => {
    const token = addUser({ isEnabled: false });
    const answer = await getCount(backend, token);
    expect(answer.body).toMatchObject({ code: 0, data: { is_enabled: false } });
  });

  test('GET getBalance answers { balance }', async () => {
    const token = addUser({ creditsBalance: 42.5 });
    const answer = await getBalance(backend, token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ code: 0, message: expect.any(String), data: { balance: 42.5 } });
  });

  test('consume charges free quota first, then credits, then answers 20101', async () => {
    const token = addUser({ freeRemaining: 2, freeTotal: 2, creditsPerUse: 10, creditsBalance: 25 });
    const answers = [];
    for (const id of ['a', 'b', 'c', 'd', 'e']) answers.push(await postConsume(backend, token, id));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.body)).toEqual([
      { code: 0, message: expect.any(String), data: { free_remaining: 1, is_credit: false } },
      { code: 0, message: expect.any(String), data: { free_remaining: 0, is_credit: false } },
      { code: 0, message: expect.any(String), data: { free_remaining: 0, is_credit: true } },
      { code: 0, message: expect.any(String), data: { free_remaining: 0, is_credit: true } },
      { code: BACKEND_CODES.insufficient, message: expect.any(String), data: null },
    ]);
    expect(backend.getUser(token, MODULE)).toMatchObject({ freeRemaining: 0, creditsBalance: 5 });
    expect(backend.charges().filter((c) => c.token === token)).toEqual([
      { token, module: MODULE, externalId: 'a', kind: 'free', amount: 1 },
      { token, module: MODULE, externalId: 'b', kind: 'free', amount: 1 },
      { token, module: MODULE, externalId: 'c', kind: 'credits', amount: 10 },
      { token, module: MODULE, externalId: 'd', kind: 'credits', amount: 10 },
    ]);
    expect((await getBalance(backend, token)).body).toMatchObject({ data: { balance: 5 } });
    expect((await getCount(backend, token)).body).toMatchObject({ data: { free_remaining: 0, free_total: 2 } });
  });

  test('a balance exactly equal to the price is enough', async () => {
    const token = addUser({ freeRemaining: 0, creditsPerUse: 7, creditsBalance: 7 });
    expect((await postConsume(backend, token, 'x')).body).toMatchObject({ code: 0, data: { is_credit: true } });
    expect(backend.getUser(token).creditsBalance).toBe(0);
  });

  test('a blacklisted user gets 20102 with data null and is charged nothing', async () => {
    const token = addUser({ blacklisted: true, freeRemaining: 2 });
    const answer = await postConsume(backend, token, 'bl-1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ code: BACKEND_CODES.blacklisted, message: expect.any(String), data: null });
    expect(backend.getUser(token, MODULE)).toMatchObject({ freeRemaining: 2, creditsBalance: 25 });
    expect(backend.charges().filter((c) => c.token === token)).toEqual([]);
  });

  test('replaying an applied external_id answers the first result and charges once', async () => {
    const token = addUser({ freeRemaining: 1 });
    const first = await postConsume(backend, token, 'same-id');
    const second = await postConsume(backend, token, 'same-id');
    expect(first.body).toMatchObject({ code: 0, data: { free_remaining: 0, is_credit: false } });
    expect(second.body).toEqual(first.body);
    expect(backend.charges().filter((c) => c.token === token)).toHaveLength(1);
    expect(backend.getUser(token, MODULE)).toMatchObject({ freeRemaining: 0, creditsBalance: 25 });
  });

  test('a replay answers the first result even after the user was blacklisted', async () => {
    const token = addUser({ freeRemaining: 0 });
    const first = await postConsume(backend, token, 'paid');
    backend.setUser(token, { blacklisted: true });
    expect((await postConsume(backend, token, 'paid')).body).toEqual(first.body);
    expect((await postConsume(backend, token, 'new')).body).toMatchObject({ code: BACKEND_CODES.blacklisted });
  });

  test('a 20101 is not recorded: the same external_id succeeds after a top-up', async () => {
    const token = addUser({ freeRemaining: 0, creditsBalance: 0 });
    expect((await postConsume(backend, token, 'retry-me')).body).toMatchObject({ code: BACKEND_CODES.insufficient });
    backend.setUser(token, { creditsBalance: 10 });
    expect((await postConsume(backend, token, 'retry-me')).body).toMatchObject({ code: 0, data: { is_credit: true } });
    expect((await postConsume(backend, token, 'retry-me')).body).toMatchObject({ code: 0, data: { is_credit: true } });
    expect(backend.charges().filter((c) => c.token === token)).toHaveLength(1);
  });

  test('external_id of exactly 255 characters is accepted', async () => {
    const token = addUser();
    expect((await postConsume(backend, token, 'x'.repeat(255))).body).toMatchObject({ code: 0 });
  });

  test('one user cannot touch another user’s quota, balance or idempotency record', async () => {
    const alice = addUser({ freeRemaining: 1, creditsBalance: 30 });
    const bob = addUser({ freeRemaining: 1, creditsBalance: 30 });
    await postConsume(backend, alice, 'shared-id');
    await postConsume(backend, alice, 'other-id');
    expect(backend.getUser(bob, MODULE)).toMatchObject({ freeRemaining: 1, creditsBalance: 30 });
    // The same external_id is a different operation for another user.
    expect((await postConsume(backend, bob, 'shared-id')).body).toMatchObject({ data: { is_credit: false } });
    expect(backend.getUser(alice, MODULE)).toMatchObject({ freeRemaining: 0, creditsBalance: 20 });
    expect((await getBalance(backend, bob)).body).toMatchObject({ data: { balance: 30 } });
  });

  test('free quota is per module, the credits wallet is shared by the modules of a user', async () => {
    const token = addUser({ freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 25 });
    await postConsume(backend, token, 'm1-a', 'generator_one');
    await postConsume(backend, token, 'm1-b', 'generator_one');
    expect((await getCount(backend, token, 'generator_two')).body).toMatchObject({ data: { free_remaining: 1 } });
    expect((await postConsume(backend, token, 'm2-a', 'generator_two')).body).toMatchObject({
      data: { is_credit: false },
    });
    expect((await getBalance(backend, token)).body).toMatchObject({ data: { balance: 15 } });
    expect(backend.getUser(token).modules).toEqual({
      generator_one: { freeRemaining: 0, freeTotal: 1 },
      generator_two: { freeRemaining: 0, freeTotal: 1 },
    });
  });

  test('a URL-encoded module value is decoded', async () => {
    const token = addUser({ freeRemaining: 2 });
    await postConsume(backend, token, 'enc', 'generator_a b&c');
    expect((await getCount(backend, token, 'generator_a b&c')).body).toMatchObject({ data: { free_remaining: 1 } });
  });

  test('the scheme of the Authorization header is case-insensitive', async () => {
    const token = addUser({ creditsBalance: 3 });
    const response = await backend.send('/ai/v1/credit/getBalance', {
      headers: { Authorization: `bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { balance: 3 } });
  });
});
