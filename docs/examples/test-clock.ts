// docs/testing.md "Tests past the free period: `createTestClock`", type-checked: a whole
// Jest test file; only the import paths differ (the sources instead of the
// package). spec/docs/readme-test-clock.spec.ts runs the README's own block.
import { createClient, isBillingError, type BillingConsumeResult } from '../../lib';
import { createReferenceBackend, createTestClock, REFERENCE_PATHS } from '../../lib/testing';

test('consumes until insufficient_credits, past each free period', async () => {
  const backend = createReferenceBackend({
    users: [{ token: 't1', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 25 }],
  });
  const clock = createTestClock();
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t1' },
    fetch: backend.fetch,
    scheduler: clock,
  });
  try {
    const results: BillingConsumeResult[] = [];
    let refusal: unknown;
    while (refusal === undefined && results.length < 10) {
      await client.billing.consume().then(
        (result) => results.push(result),
        (error: unknown) => (refusal = error),
      );
      clock.advance(30_000); // the free period is over: the next consume is charged
    }
    expect(isBillingError(refusal, 'insufficient_credits')).toBe(true);
    expect(results.map((result) => result.isCredit)).toEqual([false, true, true]);
    expect(backend.charges().map((charge) => charge.kind)).toEqual(['free', 'credits', 'credits']);
  } finally {
    client.billing.dispose();
    await backend.close();
  }
});

test('a consume retried after a 503 settles through clock.settle', async () => {
  const backend = createReferenceBackend({
    users: [{ token: 't1', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 25 }],
  });
  const clock = createTestClock();
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t1' },
    fetch: backend.fetch,
    scheduler: clock,
  });
  backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 503 });
  // `await client.billing.consume()` alone would never settle: the retry's backoff waits on the clock.
  const result = await clock.settle(client.billing.consume());
  expect(result.isCredit).toBe(false);
  expect(backend.requests().filter((request) => request.method === 'POST')).toHaveLength(2);
  client.billing.dispose();
  await backend.close();
});

// A hand-written fetch mock that answers after a real timer works with clock.settle too. The rule:
// before settle moves the clock to a timer that is not yet due (here the client's request timeout),
// it waits up to 20 ms of real time, less once the promise settles; so a mock answering after a real
// setTimeout of 0 to 10 ms answers first. A promise that never settles still rejects: when nothing is
// left on the clock, or when the next timer is past `maxMs`, after at most 20 ms per timer run.
test('a consume answered by a hand-written mock after a real setTimeout settles through clock.settle', async () => {
  const answer = (data: object) => new Response(JSON.stringify({ code: 0, message: 'ok', data }), { status: 200 });
  const clock = createTestClock();
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    fetch: () =>
      new Promise((resolve) => setTimeout(() => resolve(answer({ free_remaining: 0, is_credit: false })), 10)),
    scheduler: clock,
  });
  const result = await clock.settle(client.billing.consume());
  expect(result.isCredit).toBe(false);
  client.billing.dispose();
});
