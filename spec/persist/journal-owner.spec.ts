import { lastValueFrom, toArray } from 'rxjs';
import { createClient } from '../../lib/client';
import { reloadSafe } from '../../lib/persist';
import type { Client } from '../../lib/client-types';
import type { ClientOptions } from '../../lib/options';
import type { RecoveredConsume } from '../../lib/feature-types';
import { BASE_URL, PATH } from '../helpers/client-fixture';
import { FakeBackend, quota } from '../helpers/fake-backend';
import { VirtualClock, settle } from '../helpers/virtual-clock';
import { FakeLocks } from '../sync/tabs';
import { answerHeld, drive, MemoryStorage } from './memory-storage';

const KEY = 'unified-billing:generator_poster:pending-consumes';
const live: Client[] = [];
afterEach(() => live.splice(0).forEach((client) => client.billing.dispose()));

function page(clock: VirtualClock, fetch: ClientOptions['fetch'], storage: ClientOptions['storage']): Client {
  const client = createClient({ baseUrl: BASE_URL, appKey: 'poster', fetch, scheduler: clock, storage });
  live.push(client);
  return client;
}

/** A copy of a storage, as `window.open` and "Duplicate tab" give the new tab a copy of `sessionStorage`. */
function copyOf(storage: MemoryStorage): MemoryStorage {
  const copy = new MemoryStorage();
  storage.items.forEach((value, key) => copy.items.set(key, value));
  return copy;
}

function recoveredOf(client: Client): { all: Promise<RecoveredConsume[]>; done: () => boolean } {
  let completed = false;
  const all = lastValueFrom(client.billing.recovered$.pipe(toArray())).finally(() => (completed = true));
  return { all, done: () => completed };
}

const consumePosts = (backend: FakeBackend) =>
  backend.requests.filter((request) => request.path === PATH.consume).map((request) => request.body);

// Issue 9, item 3, third bullet.
describe('storage: a tab opened with a copy of the storage (window.open, "Duplicate tab")', () => {
  it.each([
    ['pings over a BroadcastChannel', () => ({})],
    ['Web Locks', () => ({ locks: new FakeLocks() })],
  ])("does not replay the opener's pending consume while the opener lives (%s)", async (_label, options) => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota());
    const clock = new VirtualClock(1_000_000);
    const wire = answerHeld(backend.fetch);
    const browser = options();
    const opener = page(clock, wire.fetch, reloadSafe(storage, browser));
    const pending = opener.billing.consume({ externalId: 'export-7' });
    await settle();
    expect(backend.charged).toEqual(['export-7']);
    expect(storage.items.has(KEY)).toBe(true);

    const copy = page(clock, backend.fetch, reloadSafe(copyOf(storage), browser));
    const recovered = recoveredOf(copy);
    await drive(clock, recovered.done);
    await expect(recovered.all).resolves.toEqual([]);
    expect(consumePosts(backend)).toEqual([{ module: 'generator_poster', external_id: 'export-7' }]);

    wire.release();
    await expect(pending).resolves.toMatchObject({ isCredit: false });
    expect(backend.charged).toEqual(['export-7']);
  });

  it.each([
    ['pings over a BroadcastChannel', () => ({})],
    ['Web Locks', () => ({ locks: new FakeLocks() })],
  ])(
    'forgets its copy of the entry once the opener is done, so a later reload replays nothing (%s)',
    async (_label, options) => {
      const storage = new MemoryStorage();
      const backend = new FakeBackend(quota());
      const clock = new VirtualClock(1_000_000);
      const wire = answerHeld(backend.fetch);
      const browser = options();
      const opener = page(clock, wire.fetch, reloadSafe(storage, browser));
      const pending = opener.billing.consume({ externalId: 'export-7' });
      await settle();
      const copied = copyOf(storage);
      const copy = page(clock, backend.fetch, reloadSafe(copied, browser));
      await drive(clock, recoveredOf(copy).done);
      wire.release();
      await pending;
      await drive(clock, () => !copied.items.has(KEY));

      opener.billing.dispose(); // the opener is closed; then the copy is reloaded
      copy.billing.dispose();
      const reloaded = page(clock, backend.fetch, reloadSafe(copied, browser));
      const recovered = recoveredOf(reloaded);
      await drive(clock, recovered.done);
      await expect(recovered.all).resolves.toEqual([]);
      expect(consumePosts(backend)).toHaveLength(1);
    },
  );

  it.each([
    ['pings over a BroadcastChannel', () => ({})],
    ['Web Locks', () => ({ locks: new FakeLocks() })],
  ])('drops a copied entry the live opener finished before the copy started (%s)', async (_label, options) => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota());
    const clock = new VirtualClock(1_000_000);
    const wire = answerHeld(backend.fetch);
    const browser = options();
    const opener = page(clock, wire.fetch, reloadSafe(storage, browser));
    const pending = opener.billing.consume({ externalId: 'export-7' });
    await settle();
    const copied = copyOf(storage); // copied while pending; the new page's script runs after the answer
    wire.release();
    await pending;
    const copy = page(clock, backend.fetch, reloadSafe(copied, browser));
    const recovered = recoveredOf(copy);
    await drive(clock, recovered.done);
    await expect(recovered.all).resolves.toEqual([]);
    expect(copied.items.has(KEY)).toBe(false);
    expect(consumePosts(backend)).toHaveLength(1);
  });

  it.each([
    ['pings over a BroadcastChannel', () => ({})],
    ['Web Locks', () => ({ locks: new FakeLocks() })],
  ])(
    'replays an entry whose owner is gone, and one written by an older version (no owner), %s',
    async (_label, options) => {
      const storage = new MemoryStorage();
      storage.items.set(
        KEY,
        JSON.stringify([
          { id: 'export-8', at: 1_000_000, owner: 'a-page-that-was-closed' },
          { id: 'export-9', at: 1_000_000 },
        ]),
      );
      const backend = new FakeBackend(quota());
      const clock = new VirtualClock(1_000_000);
      const client = page(clock, backend.fetch, reloadSafe(storage, options()));
      const recovered = recoveredOf(client);
      await drive(clock, recovered.done);
      const outcomes = await recovered.all;
      expect(outcomes.map(({ externalId, outcome }) => [externalId, outcome.ok]).sort()).toEqual([
        ['export-8', true],
        ['export-9', true],
      ]);
      expect(backend.charged.sort()).toEqual(['export-8', 'export-9']);
      expect(storage.items.has(KEY)).toBe(false);
    },
  );

  it('a client disposed while it asks who is alive replays nothing, and recovered$ completes', async () => {
    const storage = new MemoryStorage();
    storage.items.set(KEY, JSON.stringify([{ id: 'export-10', at: 1_000_000, owner: 'gone' }]));
    const backend = new FakeBackend(quota());
    const clock = new VirtualClock(1_000_000);
    const client = page(clock, backend.fetch, reloadSafe(storage));
    const recovered = recoveredOf(client);
    await settle();
    client.billing.dispose();
    await expect(recovered.all).resolves.toEqual([]);
    clock.advanceBy(10_000);
    await settle();
    expect(backend.requests).toHaveLength(0);
    expect(clock.pending).toBe(0);
  });

  it.each([
    ['pings over a BroadcastChannel', () => ({ perTab: true })],
    ['Web Locks', () => ({ perTab: true, locks: new FakeLocks() })],
  ])(
    "in a storage of the tab's own (perTab), drops the live opener's entry at once: after the opener's caller hears a failure and the opener goes, nothing on the copy pays for it (%s)",
    async (_label, options) => {
      const storage = new MemoryStorage();
      const backend = new FakeBackend(quota({ freeRemaining: 0, balance: 0, creditsPerUse: 2 }));
      const clock = new VirtualClock(1_000_000);
      const wire = answerHeld(backend.fetch);
      const browser = options();
      const opener = page(clock, wire.fetch, reloadSafe(storage, browser));
      const pending = opener.billing.consume({ externalId: 'refused-1' }).catch((error: unknown) => error);
      await settle();
      const copied = copyOf(storage);
      const copy = page(clock, backend.fetch, reloadSafe(copied, browser));
      const recovered = recoveredOf(copy);
      await drive(clock, recovered.done);
      await expect(recovered.all).resolves.toEqual([]);
      expect(copied.items.has(KEY)).toBe(false);

      wire.release();
      await settle();
      wire.release(); // the balance refresh that follows a refusal (issue 18 item 11)
      await expect(pending).resolves.toMatchObject({ code: 'insufficient_credits', externalId: 'refused-1' });
      copy.billing.dispose();
      opener.billing.dispose();
      backend.quota.balance = 10; // a top-up: a replay now would charge
      const later = page(clock, backend.fetch, reloadSafe(copied, browser));
      const again = recoveredOf(later);
      await drive(clock, again.done);
      await expect(again.all).resolves.toEqual([]);
      expect(backend.charged).toEqual([]);
    },
  );
});
