import { BACKEND_CODES } from '../../../lib/testing';
import {
  MODULE,
  TRANSPORTS,
  getBalance,
  makeUser,
  openBackend,
  postConsume,
  type ContractBackend,
} from '../http-helpers';

describe.each(TRANSPORTS)('reference backend: concurrent consumes (%s)', (transport) => {
  let backend: ContractBackend;
  beforeAll(async () => {
    backend = await openBackend(transport);
  });
  afterAll(() => backend.close());

  test('50 at once with free quota 3 and balance for 7 credit uses: exactly 10 charges', async () => {
    const user = makeUser({ freeRemaining: 3, freeTotal: 3, creditsPerUse: 10, creditsBalance: 75 });
    backend.addUser(user);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postConsume(backend, user.token, `burst-${i}`)),
    );
    const bodies = answers.map((a) => a.body as { code: number; data: { free_remaining: number; is_credit: boolean } });
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const charged = bodies.filter((b) => b.code === 0);
    expect(charged.filter((b) => !b.data.is_credit)).toHaveLength(3);
    expect(charged.filter((b) => b.data.is_credit)).toHaveLength(7);
    expect(bodies.filter((b) => b.code === BACKEND_CODES.insufficient)).toHaveLength(40);
    expect(charged.every((b) => b.data.free_remaining >= 0)).toBe(true);
    // Each free use saw a different remaining count: no lost update.
    expect(
      charged
        .filter((b) => !b.data.is_credit)
        .map((b) => b.data.free_remaining)
        .sort(),
    ).toEqual([0, 1, 2]);

    const charges = backend.charges().filter((c) => c.token === user.token);
    expect(charges).toHaveLength(10);
    expect(charges.filter((c) => c.kind === 'credits').reduce((sum, c) => sum + c.amount, 0)).toBe(70);
    expect(new Set(charges.map((c) => c.externalId)).size).toBe(10);
    expect(backend.getUser(user.token, MODULE)).toMatchObject({ freeRemaining: 0, creditsBalance: 5 });
    expect((await getBalance(backend, user.token)).body).toMatchObject({ data: { balance: 5 } });
  });

  test('20 at once with one external_id: one charge, twenty identical answers', async () => {
    const user = makeUser({ freeRemaining: 0, creditsPerUse: 10, creditsBalance: 100 });
    backend.addUser(user);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => postConsume(backend, user.token, 'double-click')),
    );
    expect(answers.map((a) => a.body)).toEqual(Array(20).fill(answers[0]?.body));
    expect(answers[0]?.body).toMatchObject({ code: 0, data: { is_credit: true } });
    expect(backend.charges().filter((c) => c.token === user.token)).toHaveLength(1);
    expect(backend.getUser(user.token).creditsBalance).toBe(90);
  });

  test('concurrent users do not interfere', async () => {
    const users = Array.from({ length: 5 }, () => makeUser({ freeRemaining: 1, creditsPerUse: 3, creditsBalance: 6 }));
    for (const user of users) backend.addUser(user);
    await Promise.all(
      users.flatMap((user) => Array.from({ length: 6 }, (_, i) => postConsume(backend, user.token, `op-${i}`))),
    );
    for (const user of users) {
      expect(backend.getUser(user.token, MODULE)).toMatchObject({ freeRemaining: 0, creditsBalance: 0 });
      expect(backend.charges().filter((c) => c.token === user.token)).toHaveLength(3);
    }
  });
});
