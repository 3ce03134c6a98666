import { lastValueFrom, toArray } from 'rxjs';
import { createClient } from '../../lib/client';
import { reloadSafe } from '../../lib/persist';
import type { Client } from '../../lib/client-types';
import type { FetchLike } from '../../lib/types';
import { BASE_URL, PATH } from '../helpers/client-fixture';
import { FakeBackend, quota } from '../helpers/fake-backend';
import { settle, VirtualClock } from '../helpers/virtual-clock';
import { ResponseGate } from '../helpers/wire-log';
import { crash, drive, MemoryStorage, recoveredAll } from './memory-storage';

const JOURNAL = 'unified-billing:generator_poster:pending-consumes';
const live: Client[] = [];
afterEach(() => live.splice(0).forEach((client) => client.billing.dispose()));

function page(storage: MemoryStorage, fetch: FetchLike): Client & { readonly clock: VirtualClock } {
  const clock = new VirtualClock();
  const client = createClient({
    baseUrl: BASE_URL,
    appKey: 'poster',
    fetch,
    scheduler: clock,
    storage: reloadSafe(storage),
  });
  live.push(client);
  return { ...client, clock };
}

const posts = (backend: FakeBackend) => backend.requests.filter((r) => r.path === PATH.consume);

describe('the reload journal keeps an entry until the caller has the outcome', () => {
  it('a reload during the balance refresh after a credit charge: the next page reports the charged consume', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota({ freeRemaining: 0, balance: 10, creditsPerUse: 2 }));
    const gate = new ResponseGate();
    const first = page(storage, gate.wrap(backend.fetch));
    const refresh = gate.hold(PATH.balance);
    void first.billing.consume({ externalId: 'paid-2' }).catch(() => undefined);
    await refresh.arrived;
    expect(backend.charged).toEqual(['paid-2']);
    await crash(first, storage);

    const second = page(storage, backend.fetch);
    const recovered = await recoveredAll(second, second.clock);
    expect(recovered).toEqual([
      {
        externalId: 'paid-2',
        outcome: { ok: true, result: { freeRemaining: 0, isCredit: true, isBlacklisted: false } },
      },
    ]);
    // The replay was answered from the backend's idempotency record: still one charge.
    expect(backend.charged).toEqual(['paid-2']);
    expect(storage.items.has(JOURNAL)).toBe(false);
  });

  it('dispose() with a consume in flight clears its entry: the next client replays and pays nothing', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota());
    backend.holding = true;
    const first = page(storage, backend.fetch);
    const cut = first.billing.consume({ externalId: 'gone-1' });
    await settle();
    expect(storage.items.has(JOURNAL)).toBe(true);
    first.billing.dispose();
    await expect(cut).rejects.toMatchObject({ code: 'disposed', externalId: 'gone-1' });
    expect(storage.items.has(JOURNAL)).toBe(false);
    backend.holding = false;
    backend.release();
    await settle();

    const second = page(storage, backend.fetch);
    expect(await recoveredAll(second, second.clock)).toEqual([]);
    expect(posts(backend)).toHaveLength(1);
    expect(backend.charged).toEqual([]);
  });
});

describe('dispose() while replaying what an earlier page left', () => {
  async function replayingPage(patch: Parameters<typeof quota>[0]) {
    const storage = new MemoryStorage();
    const backend = new FakeBackend(quota(patch));
    backend.holding = true;
    const first = page(storage, backend.fetch);
    void first.billing.consume({ externalId: 'left-1' }).catch(() => undefined);
    await settle();
    await crash(first, storage);
    backend.holding = false;
    backend.release();
    return { storage, backend };
  }

  it('a replay charged before dispose() is still reported through recovered$, as charged', async () => {
    const { storage, backend } = await replayingPage({ freeRemaining: 0, balance: 10, creditsPerUse: 2 });
    const gate = new ResponseGate();
    const refresh = gate.hold(PATH.balance);
    const second = page(storage, gate.wrap(backend.fetch));
    const recovered = lastValueFrom(second.billing.recovered$.pipe(toArray()));
    await drive(second.clock, () => backend.charged.length > 0);
    await refresh.arrived;
    second.billing.dispose();
    expect(await recovered).toEqual([
      {
        externalId: 'left-1',
        outcome: { ok: true, result: { freeRemaining: 0, isCredit: true, isBlacklisted: false } },
      },
    ]);
    expect(backend.charged).toEqual(['left-1']);
  });

  it('a replay cut by dispose() before its answer is reported as disposed, with its id, and its entry cleared', async () => {
    const { storage, backend } = await replayingPage({});
    const gate = new ResponseGate();
    void gate.lose(PATH.consume);
    const second = page(storage, gate.wrap(backend.fetch));
    const recovered = lastValueFrom(second.billing.recovered$.pipe(toArray()));
    await drive(second.clock, () => posts(backend).length > 1); // the dead page's POST, then the replay
    second.billing.dispose();
    const outcomes = await recovered;
    expect(outcomes).toEqual([{ externalId: 'left-1', outcome: { ok: false, error: expect.anything() } }]);
    expect(outcomes[0]?.outcome).toMatchObject({ error: { code: 'disposed', externalId: 'left-1' } });
    expect(storage.items.has(JOURNAL)).toBe(false);
  });
});
