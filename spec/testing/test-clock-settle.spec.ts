import { createClient, isBillingError, type Client, type FetchLike } from '../../lib';
import { createReferenceBackend, createTestClock, REFERENCE_PATHS, type TestClock } from '../../lib/testing';
import { realTurn } from '../../lib/testing/real-timers';

// Issue 31, point 6: a retried consume under the test clock waits on the clock (its backoff) and
// on the event loop (the backend's answers) by turns. `clock.settle` awaits it while running both;
// without it the consume never settles, and the test would hang until its timeout.

const alice = { token: 't1', freeRemaining: 1, freeTotal: 1, creditsPerUse: 10, creditsBalance: 25 };

function setUp(): { clock: TestClock; client: Client; backend: ReturnType<typeof createReferenceBackend> } {
  const backend = createReferenceBackend({ users: [alice] });
  const clock = createTestClock();
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t1' },
    fetch: backend.fetch,
    scheduler: clock,
  });
  return { clock, client, backend };
}

/** What a promise did within `turns` real turns of the event loop, the clock standing still. */
async function within<T>(promise: Promise<T>, turns: number): Promise<'pending' | 'settled'> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < turns && !settled; turn++) await realTurn();
  return settled ? 'settled' : 'pending';
}

describe('clock.settle (issue 31)', () => {
  it('settles a consume retried after a 503: the backoff runs on the clock, the answers by turns', async () => {
    const { clock, client, backend } = setUp();
    backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 503 });
    const result = await clock.settle(client.billing.consume());
    expect(result).toMatchObject({ isCredit: false, freeRemaining: 0 });
    expect(backend.requests().filter((request) => request.method === 'POST')).toHaveLength(2);
    expect(backend.charges().map((charge) => charge.kind)).toEqual(['free']);
    client.billing.dispose();
    expect(clock.pending()).toBe(0);
  });

  it('without it, the same consume stays pending: its retry waits for the clock', async () => {
    const { clock, client, backend } = setUp();
    backend.failNext(REFERENCE_PATHS.consume, 1, { kind: 'status', status: 503 });
    const consume = client.billing.consume();
    // Many more turns than settle needed: nothing moves the clock, so nothing retries.
    expect(await within(consume, 50)).toBe('pending');
    expect(backend.charges()).toEqual([]);
    expect(clock.pending()).toBeGreaterThan(0);
    await expect(clock.settle(consume)).resolves.toMatchObject({ isCredit: false });
    client.billing.dispose();
  });

  it('rejects as the promise does: a stalled consume times out on the clock, every attempt', async () => {
    const { clock, client, backend } = setUp();
    backend.failNext(REFERENCE_PATHS.consume, 3, { kind: 'stall' });
    const error = await clock.settle(client.billing.consume()).catch((reason: unknown) => reason);
    expect(isBillingError(error, 'timeout')).toBe(true);
    expect(backend.requests().filter((request) => request.method === 'POST')).toHaveLength(3);
    client.billing.dispose();
    await backend.close();
  });

  it('fails with a clear error, instead of hanging, when nothing on the clock is left to run', async () => {
    const clock = createTestClock();
    await expect(clock.settle(new Promise(() => undefined))).rejects.toThrow(
      'clock.settle: the promise is still pending after 0 ms of clock time, and no timer is armed on the clock',
    );
  });

  it('fails past maxMs of clock time, having run what was due before', async () => {
    const clock = createTestClock();
    const ran: number[] = [];
    const waiting = new Promise<void>((resolve) => {
      clock.schedule(() => ran.push(clock.now()), 1_000);
      clock.schedule(resolve, 10_000);
    });
    await expect(clock.settle(waiting, { maxMs: 5_000 })).rejects.toThrow(
      'clock.settle: the promise is still pending after 1000 ms of clock time, and the next timer is due at 10000 ms, past maxMs 5000',
    );
    expect(ran).toEqual([1_000]);
    await expect(clock.settle(waiting, { maxMs: 9_000 })).resolves.toBeUndefined();
    expect(clock.now()).toBe(10_000);
  });

  it('refuses a maxMs that is not a number of ms', async () => {
    await expect(createTestClock().settle(Promise.resolve(1), { maxMs: Number.NaN })).rejects.toThrow(RangeError);
  });
});

// A hand-written fetch mock, as people write them: it answers after a real timer. settle waits up to
// 20 ms of real time before it moves the clock to a timer not yet due (the client's request timeout).
describe('clock.settle with a hand-written fetch mock that answers after a real timer', () => {
  const answerAfter =
    (ms: number, log: string[]): FetchLike =>
    (input, init) => {
      const path = new URL(String(input)).pathname;
      log.push(`${init?.method ?? 'GET'} ${path}`);
      const data = path.endsWith('/count')
        ? { is_enabled: true, free_remaining: 1, free_total: 1, credits_per_use: 10 }
        : path.endsWith('/getBalance')
          ? { balance: 25 }
          : { free_remaining: 0, is_credit: false };
      const body = JSON.stringify({ code: 0, message: 'ok', data });
      return new Promise((resolve) => setTimeout(() => resolve(new Response(body, { status: 200 })), ms));
    };

  it.each([0, 10])('resolves the consume when the mock answers after setTimeout(%p)', async (ms) => {
    const clock = createTestClock();
    const log: string[] = [];
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      fetch: answerAfter(ms, log),
      scheduler: clock,
    });
    const result = await clock.settle(client.billing.consume());
    expect(result).toMatchObject({ isCredit: false, freeRemaining: 0 });
    // One POST: the mock's answer came before the client's timeout, so nothing was retried.
    expect(log.filter((line) => line.startsWith('POST'))).toHaveLength(1);
    expect(clock.now()).toBe(0);
    client.billing.dispose();
  });

  it('a never-settling promise still rejects within maxMs, in bounded real time', async () => {
    const clock = createTestClock();
    // A periodic timer, as a countdown is: there is always a next timer to run.
    clock.schedule(function tick(this: { schedule(state?: unknown, delay?: number): unknown }) {
      this.schedule(undefined, 1_000);
    }, 1_000);
    const started = Date.now();
    await expect(clock.settle(new Promise(() => undefined), { maxMs: 20_000 })).rejects.toThrow(
      'clock.settle: the promise is still pending after 20000 ms of clock time, and the next timer is due at 21000 ms, past maxMs 20000',
    );
    // 20 timers run, each after at most 20 ms of real waiting (and the machine's slack).
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
