/**
 * @jest-environment jsdom
 */
// The same under the jsdom environment, whose timers Jest fakes on the window.
import { createClient } from 'unified-billing';
import { createReferenceBackend, createTestClock, REFERENCE_PATHS, type ReferenceUser } from 'unified-billing/testing';

const alice: ReferenceUser = { token: 'alice', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 };

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

test('a delay fault waits on a real timer', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'delay', ms: 20 });
  const answer = await backend.fetch(`http://billing.test${REFERENCE_PATHS.balance}`, {
    headers: { Authorization: 'Bearer alice' },
  });
  expect(answer.status).toBe(200);
  await backend.close();
}, 10_000);

test('clock.settle settles a consume retried after a 503', async () => {
  const backend = createReferenceBackend({ users: [alice] });
  const clock = createTestClock();
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'jest-fake-timers-jsdom',
    headers: { Authorization: 'Bearer alice' },
    fetch: backend.fetch,
    scheduler: clock,
  });
  backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 503 });
  const result = await clock.settle(client.billing.consume());
  expect(result.isCredit).toBe(false);
  expect(backend.requests().filter((request) => request.method === 'POST')).toHaveLength(2);
  client.billing.dispose();
  await backend.close();
}, 10_000);
