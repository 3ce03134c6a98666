import { createClient } from '../../lib';
import { createReferenceBackend, createTestClock, REFERENCE_PATHS } from '../../lib/testing';

// Issue 31, point 6: what the README says of a test's fake timers holds under Jest's, all of them
// faked (the default): a `delay` fault waits on a real timer, and `clock.settle` turns the real
// event loop. Either on the fake timers would never end here, as nothing advances them: the test
// would fail on its timeout. scripts/check-consumers.mjs checks the same under Jest 29 and 30 and
// Vitest, from the tarball.

const alice = { token: 't1', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 25 };

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('a delay fault answers after real time, the fake timers standing still', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'delay', ms: 20 });
  const answer = await backend.fetch(`http://billing.test${REFERENCE_PATHS.balance}`, {
    headers: { Authorization: 'Bearer t1' },
  });
  expect(answer.status).toBe(200);
  expect(jest.getTimerCount()).toBe(0);
  await backend.close();
}, 5_000);

test('clock.settle settles a consume retried after a 503', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  const clock = createTestClock();
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t1' },
    fetch: backend.fetch,
    scheduler: clock,
  });
  backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 503 });
  await expect(clock.settle(client.billing.consume())).resolves.toMatchObject({ isCredit: false });
  expect(backend.charges().map((charge) => charge.kind)).toEqual(['free']);
  client.billing.dispose();
  await backend.close();
}, 5_000);
