// The README's statements about fake timers, run under each runner's fake timers (installed after
// the import, as a test file does; issue 31): a `delay` fault waits on a real timer, and
// `clock.settle` settles a consume retried after a 503. On the fake timers either would never end:
// nothing advances them, and the test would fail on its timeout. check-consumers.mjs copies this
// file into the Jest and Vitest projects beside their four fake-timers*.test.ts.
import { createClient } from 'unified-billing';
import { createReferenceBackend, createTestClock, REFERENCE_PATHS, type ReferenceUser } from 'unified-billing/testing';

type Test = (name: string, body: () => Promise<void>, timeoutMs: number) => void;

const alice: ReferenceUser = { token: 'alice', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 };

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** Declares the two cases with the runner's `test`; `appKey` names the project in the requests. */
export function fakeTimerCases(test: Test, appKey: string): void {
  test('a delay fault waits on a real timer', async () => {
    const backend = createReferenceBackend({ users: [alice] });
    backend.failNext(REFERENCE_PATHS.balance, 1, { kind: 'delay', ms: 20 });
    const answer = await backend.fetch(`http://billing.test${REFERENCE_PATHS.balance}`, {
      headers: { Authorization: 'Bearer alice' },
    });
    check(answer.status === 200, `the delayed balance answered ${answer.status}`);
    await backend.close();
  }, 10_000);

  test('clock.settle settles a consume retried after a 503', async () => {
    const backend = createReferenceBackend({ users: [alice] });
    const clock = createTestClock();
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey,
      headers: { Authorization: 'Bearer alice' },
      fetch: backend.fetch,
      scheduler: clock,
    });
    backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 503 });
    const result = await clock.settle(client.billing.consume());
    check(result.isCredit === false, 'the retried consume was not a free use');
    const posts = backend.requests().filter((request) => request.method === 'POST');
    check(posts.length === 2, `expected 2 POSTs (the 503 and its retry), saw ${posts.length}`);
    client.billing.dispose();
    await backend.close();
  }, 10_000);
}
