import { createClient, type BillingStatus, type Client } from '../../lib';
import { createReferenceBackend } from '../../lib/testing';

// Issue 27: what a UI sees before the first GET pair answers. It must read as "loading" (or
// "not loaded yet"), never as a quota of 0 left or a refusal with an error: a mutant that
// started the status as loaded survived the whole mutation run before this spec.

const USER = { token: 't', freeRemaining: 3, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 };
const NOTHING_YET: BillingStatus = { loaded: false, loading: false, fetchedAt: null, pending: 0, error: null };

/** A client whose GETs are held on the wire until `release()`; `held(n)` waits for n of them. */
function heldGets() {
  const backend = createReferenceBackend({ users: [USER] });
  const gate: Array<() => void> = [];
  const waiters: Array<() => void> = [];
  const fetch = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if ((init?.method ?? 'GET') !== 'GET') return backend.fetch(url, init);
    return new Promise<void>((resolve) => {
      gate.push(resolve);
      waiters.forEach((wake) => wake());
    }).then(() => backend.fetch(url, init));
  };
  const client: Client = createClient({
    baseUrl: 'https://billing.example',
    appKey: 'poster',
    headers: { Authorization: 'Bearer t' },
    fetch,
  });
  const statuses: BillingStatus[] = [];
  const subscription = client.billing.status$.subscribe((status) => statuses.push(status));
  return {
    client,
    statuses,
    held: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => gate.length >= n && resolve();
        waiters.push(check);
        check();
      }),
    release: () => gate.splice(0).forEach((open) => open()),
    done: () => {
      subscription.unsubscribe();
      client.billing.dispose();
    },
  };
}

describe('the status before the first usage answer', () => {
  it('on creation: not loaded, not loading, nothing pending, no error, and no usage or snapshot to show', () => {
    const { client, statuses, done } = heldGets();
    try {
      expect(client.billing.getStatus()).toEqual(NOTHING_YET);
      expect(statuses).toEqual([NOTHING_YET]);
      expect(client.billing.getCachedUsage()).toBeNull();
      expect(client.billing.snapshot()).toBeNull();
    } finally {
      done();
    }
  });

  it('while the first GET pair is held: loading, with no usage shown (never "0 left") and no error', async () => {
    const { client, statuses, held, release, done } = heldGets();
    try {
      const usage = client.billing.getUsage();
      await held(2);
      const loading = { ...NOTHING_YET, loading: true };
      expect(client.billing.getStatus()).toEqual(loading);
      expect(statuses).toEqual([NOTHING_YET, loading]);
      expect(client.billing.getCachedUsage()).toBeNull();
      expect(client.billing.snapshot()).toBeNull();

      release();
      await expect(usage).resolves.toMatchObject({ freeRemaining: 3, creditsBalance: 10 });
      expect(client.billing.getStatus()).toMatchObject({ loaded: true, loading: false, pending: 0, error: null });
      expect(client.billing.getStatus().fetchedAt).toEqual(expect.any(Number));
      expect(statuses.map(({ loaded, loading: busy }) => [loaded, busy])).toEqual([
        [false, false],
        [false, true],
        [true, false],
      ]);
    } finally {
      done();
    }
  });
});
