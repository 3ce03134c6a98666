import { firstValueFrom, toArray } from 'rxjs';
import { createClient } from '../../lib/client';
import { reloadSafe } from '../../lib/persist';
import type { Client } from '../../lib/client-types';
import type { RecoveredConsume } from '../../lib/feature-types';
import { BASE_URL, PATH } from '../helpers/client-fixture';
import { FakeBackend, quota } from '../helpers/fake-backend';
import { VirtualClock, settle } from '../helpers/virtual-clock';
import { answerHeld, crash, MemoryStorage, recoveredAll } from './memory-storage';

const live: Client[] = [];
afterEach(() => {
  live.splice(0).forEach((client) => client.billing.dispose());
  jest.restoreAllMocks();
});

/**
 * One page load at `wallAt`: a client on its own fresh clock. A `scheduler` given to
 * the client is its wall clock too, so the clock starts at the page's wall time.
 */
function page(storage: MemoryStorage, backend: FakeBackend, fetch = backend.fetch, wallAt = 1_000_000) {
  const clock = new VirtualClock(wallAt);
  const client = createClient({
    baseUrl: BASE_URL,
    appKey: 'poster',
    fetch,
    scheduler: clock,
    storage: reloadSafe(storage),
  });
  live.push(client);
  return { client, clock };
}

const posts = (backend: FakeBackend) => backend.requests.filter((r) => r.path === PATH.consume).map((r) => r.body);

describe('storage: the free period across a reload', () => {
  it('a reload 10 s into the free period keeps the remaining 20 s, with no request for a consume in it', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota());
    const first = page(storage, backend, backend.fetch, 5_000_000);
    await first.client.billing.consume();
    first.client.billing.dispose();

    const second = page(storage, backend, backend.fetch, 5_010_000);
    expect(second.client.billing.check()).toEqual({ canProceed: true, reason: 'free_period' });
    expect(await firstValueFrom(second.client.billing.freePeriodRemaining$)).toBe(20);
    await second.client.billing.consume();
    expect(backend.charged).toHaveLength(1);

    second.clock.advanceBy(20_000);
    expect(second.client.billing.check()).toEqual({ canProceed: false, reason: 'insufficient' });
    expect([...storage.items.keys()]).toEqual([]);
  });

  it('a reload after the period ended restores nothing', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota());
    const first = page(storage, backend, backend.fetch, 5_000_000);
    await first.client.billing.consume();
    first.client.billing.dispose();
    const second = page(storage, backend, backend.fetch, 5_030_000);
    expect(second.client.billing.check().reason).not.toBe('free_period');
    await second.client.billing.consume();
    expect(backend.charged).toHaveLength(2);
  });

  it.each([
    ['an end an hour ahead (clock moved back, or tampered)', String(9_000_000 + 3_600_000), 30],
    ['garbage', 'not-a-number', 0],
    ['a negative end', '-5', 0],
  ])('a stored %s is clamped to 0..30 s', async (_label, stored, seconds) => {
    const storage = new MemoryStorage();
    storage.items.set('unified-billing:generator_poster:free-period-end', stored);
    const backend = new FakeBackend(quota());
    const { client } = page(storage, backend, backend.fetch, 9_000_000);
    expect(await firstValueFrom(client.billing.freePeriodRemaining$)).toBe(seconds);
  });

  it('keys follow the scope option, so two users of one browser do not share a period', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota());
    const alice = createClient({
      baseUrl: BASE_URL,
      appKey: 'poster',
      fetch: backend.fetch,
      scheduler: new VirtualClock(),
      storage: reloadSafe(storage),
      scope: 'alice',
    });
    live.push(alice);
    await alice.billing.consume();
    expect([...storage.items.keys()]).toEqual(['unified-billing:alice:free-period-end']);
    const bob = createClient({
      baseUrl: BASE_URL,
      appKey: 'poster',
      fetch: backend.fetch,
      scheduler: new VirtualClock(),
      storage: reloadSafe(storage),
      scope: 'bob',
    });
    live.push(bob);
    expect(bob.billing.check().reason).not.toBe('free_period');
  });
});

describe('storage: a consume cut by a reload', () => {
  it('charged but unanswered: the next page replays the same external_id, the backend charges once, recovered$ tells the result', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota({ freeRemaining: 3 }));
    const wire = answerHeld(backend.fetch);
    const first = page(storage, backend, wire.fetch);
    const cut = first.client.billing.consume({ externalId: 'export-7' }).catch((error: unknown) => error);
    await settle();
    expect(backend.charged).toEqual(['export-7']);
    await crash(first.client, storage);
    await expect(cut).resolves.toMatchObject({ code: 'disposed' });
    wire.release();

    const second = page(storage, backend);
    const recovered: RecoveredConsume[] = await recoveredAll(second.client, second.clock);
    expect(recovered).toEqual([
      {
        externalId: 'export-7',
        outcome: { ok: true, result: { freeRemaining: 2, isCredit: false, isBlacklisted: false } },
      },
    ]);
    expect(posts(backend)).toEqual([
      { module: 'generator_poster', external_id: 'export-7' },
      { module: 'generator_poster', external_id: 'export-7' },
    ]);
    expect(backend.charged).toEqual(['export-7']);
    expect(second.client.billing.check().reason).toBe('free_period');
    expect(storage.items.has('unified-billing:generator_poster:pending-consumes')).toBe(false);
  });

  it('cut before the backend saw it: the replay makes the one charge', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota());
    backend.holding = true;
    const first = page(storage, backend);
    const cut = first.client.billing.consume({ externalId: 'export-8' }).catch(() => undefined);
    await settle();
    await crash(first.client, storage);
    await cut;
    backend.release();
    await settle();
    expect(backend.charged).toEqual([]);

    backend.holding = false;
    const second = page(storage, backend);
    const [recovered] = await recoveredAll(second.client, second.clock);
    expect(recovered?.outcome.ok).toBe(true);
    expect(backend.charged).toEqual(['export-8']);
  });

  it('a replayed refusal is delivered too, and the journal is cleared', async () => {
    const storage = new MemoryStorage();
    storage.items.set(
      'unified-billing:generator_poster:pending-consumes',
      JSON.stringify([{ id: 'export-9', at: 1_000_000 }]),
    );
    const backend = new FakeBackend(quota({ freeRemaining: 0, balance: 0 }));
    const { client } = page(storage, backend);
    const [recovered] = await firstValueFrom(client.billing.recovered$.pipe(toArray()));
    expect(recovered?.outcome).toMatchObject({
      ok: false,
      error: { code: 'insufficient_credits', externalId: 'export-9' },
    });
    expect(storage.items.size).toBe(0);
  });

  it('entries older than a day, and unreadable ones, are dropped without a request', async () => {
    const storage = new MemoryStorage();
    const day = 24 * 60 * 60 * 1000;
    storage.items.set(
      'unified-billing:generator_poster:pending-consumes',
      JSON.stringify([{ id: 'old', at: 49 * day - 1 }, { id: '', at: 50 * day }, { nonsense: true }, 'x']),
    );
    const backend = new FakeBackend(quota());
    const { client } = page(storage, backend, backend.fetch, 50 * day);
    expect(await firstValueFrom(client.billing.recovered$.pipe(toArray()))).toEqual([]);
    expect(backend.requests).toHaveLength(0);
  });

  it.each([
    ['a charge', quota(), undefined],
    ['a refusal (20101)', quota({ freeRemaining: 0, balance: 0 }), undefined],
    ['a failure the caller was told about (503, no retries)', quota(), 503],
  ])('the journal is empty once the caller heard the outcome of %s', async (_label, served, status) => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(served);
    if (status !== undefined) backend.script(PATH.consume, { status, body: 'unavailable' });
    const client = createClient({
      baseUrl: BASE_URL,
      appKey: 'poster',
      fetch: backend.fetch,
      scheduler: new VirtualClock(),
      storage: reloadSafe(storage),
      retries: 0,
    });
    live.push(client);
    await client.billing.consume({ externalId: 'e-1' }).catch(() => undefined);
    expect(storage.items.has('unified-billing:generator_poster:pending-consumes')).toBe(false);
    expect(posts(backend)).toHaveLength(1);
  });

  it('the journal is written before the POST leaves', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota());
    let journalAtSend: string | null = null;
    const fetch: typeof backend.fetch = (input, init) => {
      journalAtSend = storage.items.get('unified-billing:generator_poster:pending-consumes') ?? null;
      return backend.fetch(input, init);
    };
    const { client } = page(storage, backend, fetch);
    await client.billing.consume({ externalId: 'e-2' });
    expect(JSON.parse(journalAtSend ?? '[]')).toEqual([{ id: 'e-2', at: 1_000_000, owner: expect.any(String) }]);
  });
});
