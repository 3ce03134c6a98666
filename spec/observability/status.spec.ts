import { type BillingStatus, refetchOn } from '../../lib';
import { cleanup, fixture, PATH } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';

// Issue 12 item 1, black box: what `getStatus()` and `status$` show through a
// whole cycle of a client on the reference backend, in virtual time.

afterEach(cleanup);

const START = 1_000_000;
const FAILED = { status: 500, body: 'down' };

describe('getStatus() through a whole cycle', () => {
  it('not loaded, then loading during getUsage, then ready at the scheduler time of the answer', async () => {
    const { client, backend, clock } = fixture();
    expect(client.billing.getStatus()).toEqual({
      loaded: false,
      loading: false,
      fetchedAt: null,
      pending: 0,
      error: null,
    });

    backend.holding = true;
    const usage = client.billing.getUsage();
    usage.catch(() => undefined); // a failed expectation below must not leave it unhandled
    await settle();
    expect(client.billing.getStatus()).toEqual({
      loaded: false,
      loading: true,
      fetchedAt: null,
      pending: 0,
      error: null,
    });

    clock.advanceBy(1_234);
    backend.holding = false;
    backend.release();
    await usage;
    expect(client.billing.getStatus()).toEqual({
      loaded: true,
      loading: false,
      fetchedAt: START + 1_234,
      pending: 0,
      error: null,
    });
    expect(client.billing.getCachedUsage()).not.toBeNull();
  });

  it('pending is 1 while a consume waits for its answer, 0 once answered', async () => {
    const { client, backend } = fixture();
    await client.billing.getUsage();
    backend.holding = true;
    const consumed = client.billing.consume();
    consumed.catch(() => undefined);
    await settle();
    expect(backend.count(PATH.consume)).toBe(1);
    expect(client.billing.getStatus()).toMatchObject({ pending: 1, loading: false, error: null });
    backend.holding = false;
    backend.release();
    await consumed;
    expect(client.billing.getStatus()).toMatchObject({ pending: 0, error: null });
  });

  it('a failed getUsage sets error; the next successful getUsage clears it', async () => {
    const { client, backend } = fixture({}, { retries: 0 });
    backend.script(PATH.count, FAILED);
    await expect(client.billing.getUsage()).rejects.toMatchObject({ code: 'http', status: 500 });
    const failed = client.billing.getStatus();
    expect(failed).toMatchObject({ loaded: false, loading: false, fetchedAt: null, pending: 0 });
    expect(failed.error).toMatchObject({ code: 'http', status: 500 });

    await client.billing.getUsage();
    expect(client.billing.getStatus()).toMatchObject({ loaded: true, loading: false, error: null });
  });

  it('a failed consume sets error; a successful getUsage keeps it, only a later successful consume clears it', async () => {
    const { client, backend } = fixture({}, { retries: 0 });
    await client.billing.getUsage();
    backend.script(PATH.consume, FAILED);
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'http' });
    expect(client.billing.getStatus().error).toMatchObject({ code: 'http', status: 500 });
    expect(client.billing.getStatus().pending).toBe(0);

    await client.billing.getUsage();
    expect(client.billing.getStatus().error).toMatchObject({ code: 'http', status: 500 });

    await client.billing.consume();
    expect(client.billing.getStatus().error).toBeNull();
  });

  it("an insufficient_credits refusal is an answer: it sets no error and clears a failed consume's", async () => {
    const { client, backend } = fixture({ freeRemaining: 0, balance: 1, creditsPerUse: 2 }, { retries: 0 });
    await client.billing.getUsage();
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(client.billing.getStatus().error).toBeNull();
    backend.script(PATH.consume, FAILED);
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'http' });
    expect(client.billing.getStatus().error).toMatchObject({ code: 'http' });
    await expect(client.billing.consume()).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(client.billing.getStatus()).toMatchObject({ error: null, pending: 0 });
  });

  it('a failed balance refresh sets error; the next refresh or getUsage clears it', async () => {
    const { client, backend } = fixture({}, { retries: 0 });
    await client.billing.getUsage();
    backend.script(PATH.balance, FAILED);
    await expect(client.billing.refreshCredits()).rejects.toMatchObject({ code: 'http' });
    expect(client.billing.getStatus().error).toMatchObject({ code: 'http', status: 500 });
    await client.billing.refreshCredits();
    expect(client.billing.getStatus().error).toBeNull();
    backend.script(PATH.balance, FAILED);
    await client.billing.refreshCredits().catch(() => undefined);
    expect(client.billing.getStatus().error).not.toBeNull();
    await client.billing.getUsage();
    expect(client.billing.getStatus().error).toBeNull();
  });

  it('aborted and invalid calls leave the status as it was (no error)', async () => {
    const { client } = fixture();
    await client.billing.getUsage();
    const before = client.billing.getStatus();
    const aborted = AbortSignal.abort();
    await expect(client.billing.getUsage({ signal: aborted })).rejects.toMatchObject({ code: 'aborted' });
    await expect(client.billing.consume({ signal: aborted })).rejects.toMatchObject({ code: 'aborted' });
    await expect(client.billing.consume({ externalId: '' })).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(client.billing.getStatus()).toBe(before);
    expect(before.error).toBeNull();
  });

  it("a headers function that fails (token service down) shows in error, a refetch's too", async () => {
    let down = false;
    const headers = async () => {
      if (down) throw new Error('token service down');
      return { Authorization: 'Bearer t' };
    };
    const { client, clock } = fixture({}, { headers, refetch: refetchOn({ intervalMs: 5_000 }) });
    await client.billing.getUsage();
    down = true;
    clock.advanceBy(5_000); // a refetch nobody awaits: the status is the only place it can show
    await settle();
    expect(client.billing.getStatus()).toMatchObject({ loading: false, error: { code: 'invalid_argument' } });
    down = false;
    await client.billing.getUsage();
    expect(client.billing.getStatus().error).toBeNull();
  });

  it('a getUsage aborted while in flight ends its loading without an error', async () => {
    const { client, backend } = fixture();
    backend.holding = true;
    const controller = new AbortController();
    const usage = client.billing.getUsage({ signal: controller.signal });
    usage.catch(() => undefined);
    await settle();
    expect(client.billing.getStatus().loading).toBe(true);
    controller.abort();
    await expect(usage).rejects.toMatchObject({ code: 'aborted' });
    expect(client.billing.getStatus()).toMatchObject({ loaded: false, loading: false, error: null });
    backend.holding = false;
    backend.release();
  });

  it('after dispose getStatus() throws disposed and status$ completes', async () => {
    const { client } = fixture();
    await client.billing.getUsage();
    let completed = false;
    client.billing.status$.subscribe({ complete: () => (completed = true) });
    client.billing.dispose();
    expect(() => client.billing.getStatus()).toThrow(expect.objectContaining({ code: 'disposed' }));
    expect(completed).toBe(true);
  });
});

describe('status$', () => {
  it('replays the latest status to a late subscriber, then emits only on change', async () => {
    const { client, backend } = fixture();
    const early: BillingStatus[] = [];
    client.billing.status$.subscribe((status) => early.push(status));
    expect(early).toEqual([client.billing.getStatus()]);

    await client.billing.getUsage();
    const late: BillingStatus[] = [];
    client.billing.status$.subscribe((status) => late.push(status));
    expect(late).toEqual([client.billing.getStatus()]);
    expect(late[0]).toMatchObject({ loaded: true, loading: false });

    // A consume: pending 1, then 0. Inside the free period a consume sends nothing and changes nothing.
    await client.billing.consume();
    const afterCharge = late.length;
    expect(late.slice(1).map((status) => status.pending)).toEqual([1, 0]);
    await client.billing.consume();
    await client.billing.consume();
    expect(late).toHaveLength(afterCharge);
    expect(backend.count(PATH.consume)).toBe(1);

    // Every emission differs from the one before it.
    for (let i = 1; i < early.length; i++) expect(early[i]).not.toEqual(early[i - 1]);
    expect(early.map(({ loaded, loading, pending }) => [loaded, loading, pending])).toEqual([
      [false, false, 0],
      [false, true, 0],
      [true, false, 0],
      [true, false, 1],
      [true, false, 0],
    ]);
  });
});
