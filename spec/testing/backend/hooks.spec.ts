import { REFERENCE_PATHS, type ReferenceUser } from '../../../lib/testing';
import {
  MODULE,
  TRANSPORTS,
  getBalance,
  getCount,
  makeUser,
  openBackend,
  postConsume,
  rawRequest,
  type ContractBackend,
} from '../http-helpers';

describe.each(TRANSPORTS)('reference backend: test hooks (%s)', (transport) => {
  let backend: ContractBackend;
  let user: ReferenceUser;
  beforeAll(async () => {
    user = makeUser({ freeRemaining: 2, freeTotal: 3, creditsPerUse: 4, creditsBalance: 10 });
    backend = await openBackend(transport, { users: [user] });
  });
  afterAll(() => backend.close());
  beforeEach(() => backend.reset());

  test('getUser before any request: the configuration, defaults applied, no module', () => {
    expect(backend.getUser(user.token)).toEqual({
      token: user.token,
      freeRemaining: 2,
      freeTotal: 3,
      creditsPerUse: 4,
      creditsBalance: 10,
      blacklisted: false,
      isEnabled: true,
      modules: {},
    });
  });

  test('getUser and setUser throw for an unknown token', () => {
    expect(() => backend.getUser('nobody')).toThrow();
    expect(() => backend.setUser('nobody', { creditsBalance: 1 })).toThrow();
  });

  test('getUser returns a copy', async () => {
    await postConsume(backend, user.token, 'a');
    const snapshot = backend.getUser(user.token);
    snapshot.creditsBalance = 999;
    const quota = snapshot.modules[MODULE];
    if (quota !== undefined) quota.freeRemaining = 999;
    expect(backend.getUser(user.token, MODULE)).toMatchObject({ creditsBalance: 10, freeRemaining: 1 });
  });

  test('setUser tops up the balance, seen on the wire', async () => {
    backend.setUser(user.token, { creditsBalance: 100 });
    expect((await getBalance(backend, user.token)).body).toMatchObject({ data: { balance: 100 } });
  });

  test('setUser freeRemaining applies to seen modules and to modules not seen yet', async () => {
    await postConsume(backend, user.token, 'a', 'generator_one');
    backend.setUser(user.token, { freeRemaining: 0 });
    expect((await getCount(backend, user.token, 'generator_one')).body).toMatchObject({ data: { free_remaining: 0 } });
    expect((await getCount(backend, user.token, 'generator_two')).body).toMatchObject({ data: { free_remaining: 0 } });
  });

  test('setUser with a module changes that module only', async () => {
    backend.setUser(user.token, { freeRemaining: 3 }, 'generator_one');
    expect(backend.getUser(user.token, 'generator_one').freeRemaining).toBe(3);
    expect((await getCount(backend, user.token, 'generator_two')).body).toMatchObject({ data: { free_remaining: 2 } });
  });

  test('setUser blacklisted and isEnabled take effect', async () => {
    backend.setUser(user.token, { blacklisted: true, isEnabled: false });
    expect((await postConsume(backend, user.token, 'x')).body).toMatchObject({ code: 20102 });
    expect((await getCount(backend, user.token)).body).toMatchObject({ data: { is_enabled: false } });
    backend.setUser(user.token, { blacklisted: false });
    expect((await postConsume(backend, user.token, 'x')).body).toMatchObject({ code: 0 });
  });

  test.each([{ creditsBalance: -1 }, { freeRemaining: 1.5 }, { creditsPerUse: Number.NaN }, { blacklisted: 'yes' }])(
    'setUser rejects %p and changes nothing',
    (patch) => {
      const before = backend.getUser(user.token);
      expect(() => backend.setUser(user.token, { creditsBalance: 50, ...(patch as object) })).toThrow(TypeError);
      expect(backend.getUser(user.token)).toEqual(before);
    },
  );

  test('addUser makes a token valid; a taken token or an invalid user throws', async () => {
    const bob = makeUser({ creditsBalance: 7 });
    expect((await getBalance(backend, bob.token)).status).toBe(401);
    backend.addUser(bob);
    expect((await getBalance(backend, bob.token)).body).toMatchObject({ data: { balance: 7 } });
    expect(() => backend.addUser(bob)).toThrow();
    expect(() => backend.addUser({ ...makeUser(), token: '' })).toThrow(TypeError);
    expect(() => backend.addUser({ ...makeUser(), freeTotal: -1 })).toThrow(TypeError);
  });

  test('requests() logs method, path, query, token, body, status, code and time, in order', async () => {
    const before = Date.now();
    await getCount(backend, user.token);
    await postConsume(backend, user.token, 'logged');
    await rawRequest(backend, { path: '/nowhere?x=1' });
    expect(backend.requests()).toEqual([
      {
        method: 'GET',
        path: REFERENCE_PATHS.freeTrialCount,
        query: { module: MODULE },
        token: user.token,
        status: 200,
        code: 0,
        at: expect.any(Number),
      },
      {
        method: 'POST',
        path: REFERENCE_PATHS.consume,
        query: {},
        token: user.token,
        body: { module: MODULE, external_id: 'logged' },
        status: 200,
        code: 0,
        at: expect.any(Number),
      },
      { method: 'GET', path: '/nowhere', query: { x: '1' }, status: 404, code: 404, at: expect.any(Number) },
    ]);
    expect(backend.requests().every((r) => r.at >= before && r.at <= Date.now())).toBe(true);
  });

  test('requests() returns copies, and query names like __proto__ are kept as data', async () => {
    await rawRequest(backend, { path: `${REFERENCE_PATHS.balance}?__proto__=1&constructor=2` });
    const [record] = backend.requests();
    expect(record?.query).toEqual({ ['__proto__']: '1', constructor: '2' });
    expect(Object.keys(record?.query ?? {})).toEqual(['__proto__', 'constructor']);
    if (record !== undefined) record.status = 999;
    expect(backend.requests()[0]?.status).toBe(401);
  });

  test('clearLog() empties the log and keeps the state', async () => {
    await postConsume(backend, user.token, 'kept');
    backend.clearLog();
    expect(backend.requests()).toEqual([]);
    expect(backend.charges()).toHaveLength(1);
  });

  test('reset() restores the users given at start and forgets charges, log and faults', async () => {
    backend.setUser(user.token, { creditsBalance: 0 });
    await postConsume(backend, user.token, 'r');
    backend.addUser(makeUser({ token: 'temporary' }));
    backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'drop' });
    backend.reset();
    expect(backend.charges()).toEqual([]);
    expect(backend.requests()).toEqual([]);
    expect(backend.pendingFaults(REFERENCE_PATHS.balance)).toBe(0);
    expect(backend.getUser(user.token)).toMatchObject({ creditsBalance: 10, freeRemaining: 2, modules: {} });
    expect(() => backend.getUser('temporary')).toThrow();
    expect((await postConsume(backend, user.token, 'r')).body).toMatchObject({ data: { free_remaining: 1 } });
  });
});
