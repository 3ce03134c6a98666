import { createClient, type Client } from '../../lib';
import { createReferenceBackend, REFERENCE_PATHS } from '../../lib/testing';

// Issue 23, point 1: a request its only caller abandoned is never joined by the next call.
// A slow network: `hold(n)` makes the next n requests wait until they are aborted, and never answer.

const USER = { token: 't', freeRemaining: 3, freeTotal: 3, creditsPerUse: 5, creditsBalance: 20 };

function rig() {
  const backend = createReferenceBackend({ users: [USER] });
  let holdNext = 0;
  let holdPath: string | undefined;
  const held: string[] = [];
  const waiters: Array<() => void> = [];
  const fetch = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const path = new URL(String(url)).pathname;
    if (holdNext <= 0 || (holdPath !== undefined && path !== holdPath)) return backend.fetch(url, init);
    holdNext -= 1;
    held.push(path);
    waiters.forEach((wake) => wake());
    return new Promise((_, reject) =>
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
  };
  const client: Client = createClient({
    baseUrl: 'https://billing.example',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t' },
    fetch,
  });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  return {
    backend,
    client,
    unhandled,
    /** Holds the next `n` requests (to `path` only, when given). */
    hold: (n: number, path?: string) => {
      holdNext = n;
      holdPath = path;
    },
    /** Resolves once `n` requests in all are held on the wire. */
    heldCount: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => held.length >= n && resolve();
        waiters.push(check);
        check();
      }),
    done: () => {
      client.billing.dispose();
      process.off('unhandledRejection', onUnhandled);
    },
  };
}

// Lets every pending rejection reach the unhandled-rejection hook.
const drain = () => new Promise((resolve) => setImmediate(resolve));

describe('a request its only caller abandoned', () => {
  test('getUsage(): the call after an unmount starts a new request and resolves (the snippet of issue 23)', async () => {
    const { client, hold, heldCount, unhandled, done } = rig();
    hold(2);
    const unmount = new AbortController();
    const first = client.billing.getUsage({ signal: unmount.signal }).catch((e: { code: string }) => e.code);
    await heldCount(2);
    unmount.abort();
    expect(await first).toBe('aborted');
    await expect(client.billing.getUsage()).resolves.toMatchObject({ freeRemaining: 3, creditsBalance: 20 });
    await drain();
    expect(unhandled).toEqual([]);
    done();
  });

  test('getUsage(): a call made in the same tick as the abort does not join the dead request', async () => {
    const { client, hold, heldCount, done } = rig();
    hold(2);
    const unmount = new AbortController();
    const first = client.billing.getUsage({ signal: unmount.signal }).catch((e: { code: string }) => e.code);
    await heldCount(2);
    unmount.abort();
    const next = client.billing.getUsage();
    expect(await first).toBe('aborted');
    await expect(next).resolves.toMatchObject({ freeRemaining: 3 });
    done();
  });

  test('getUsage(): a caller that joined a request whose other caller left keeps it alive', async () => {
    const { client, backend, done } = rig();
    const leave = new AbortController();
    // Not held: the backend answers, after both callers are in.
    const first = client.billing.getUsage({ signal: leave.signal }).catch((e: { code: string }) => e.code);
    const second = client.billing.getUsage({ signal: new AbortController().signal });
    leave.abort();
    expect(await first).toBe('aborted');
    await expect(second).resolves.toMatchObject({ freeRemaining: 3 });
    // One pair: the second caller joined the request, which went on for it.
    expect(backend.requests().filter((r) => r.method === 'GET')).toHaveLength(2);
    done();
  });

  test('the balance: getBalance() after a consume whose refresh its caller abandoned', async () => {
    const { client, backend, hold, heldCount, unhandled, done } = rig();
    await client.billing.getUsage();
    backend.setUser('t', { freeRemaining: 0 });
    await client.billing.getUsage();
    // The credit charge answers; the balance refresh after it is held until its caller leaves.
    hold(1, REFERENCE_PATHS.balance);
    const leave = new AbortController();
    const consume = client.billing.consume({ signal: leave.signal });
    await heldCount(1);
    leave.abort();
    await expect(consume).resolves.toMatchObject({ isCredit: true });
    await expect(client.credits.getBalance()).resolves.toBe(15);
    await expect(client.billing.refreshCredits()).resolves.toBeUndefined();
    await drain();
    expect(unhandled).toEqual([]);
    done();
  });

  test('dispose() rejects every waiter with disposed and aborts the requests', async () => {
    const { client, hold, heldCount, done } = rig();
    hold(3);
    const usage = client.billing.getUsage().catch((e: { code: string }) => e.code);
    const balance = client.credits.getBalance().catch((e: { code: string }) => e.code);
    await heldCount(3);
    client.billing.dispose();
    expect(await usage).toBe('disposed');
    expect(await balance).toBe('disposed');
    done();
  });
});
