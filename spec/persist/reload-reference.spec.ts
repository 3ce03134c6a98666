import { firstValueFrom, toArray } from 'rxjs';
import { createClient } from '../../lib/client';
import { reloadSafe } from '../../lib/persist';
import { LIVENESS_CAP_MS } from '../../lib/persist/page-liveness';
import { startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import type { Client } from '../../lib/client-types';
import { VirtualClock } from '../helpers/virtual-clock';
import { crash, MemoryStorage } from './memory-storage';

const CONSUME = '/ai/v5/service/free_trial';
let backend: ReferenceBackend;
const live: Client[] = [];

beforeAll(async () => {
  backend = await startReferenceBackend({
    users: [{ token: 't1', freeRemaining: 0, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 }],
  });
});
afterEach(() => live.splice(0).forEach((client) => client.billing.dispose()));
afterAll(() => backend.close());

function page(storage: MemoryStorage, clock = new VirtualClock()): Client {
  const client = createClient({
    baseUrl: backend.url,
    appKey: 'poster',
    headers: { Authorization: 'Bearer t1' },
    scheduler: clock,
    storage: reloadSafe(storage),
    retries: 0,
  });
  live.push(client);
  return client;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  if (!condition()) throw new Error('condition never held');
}

it('over real HTTP: a page reloaded while its POST stalls is charged once, by the replay, in credits', async () => {
  const storage = new MemoryStorage();
  backend.failNext(CONSUME, 1, { kind: 'stall' });
  const first = page(storage);
  const cut = first.billing.consume({ externalId: 'export-42' }).catch((error: unknown) => error);
  await until(() => backend.requests().some((request) => request.path === CONSUME));
  await crash(first, storage);
  await expect(cut).resolves.toMatchObject({ code: 'disposed' });

  const clock = new VirtualClock();
  const second = page(storage, clock);
  const recovered$ = firstValueFrom(second.billing.recovered$.pipe(toArray()));
  // The first page is gone: no answer to the ping that asks whether the entry's owner lives.
  await new Promise((resolve) => setTimeout(resolve, 20));
  clock.advanceBy(LIVENESS_CAP_MS);
  const recovered = await recovered$;
  expect(recovered).toEqual([
    {
      externalId: 'export-42',
      outcome: { ok: true, result: { freeRemaining: 0, isCredit: true, isBlacklisted: false } },
    },
  ]);
  expect(backend.charges()).toEqual([expect.objectContaining({ externalId: 'export-42', kind: 'credits', amount: 2 })]);
  expect(backend.getUser('t1').creditsBalance).toBe(8);
});
