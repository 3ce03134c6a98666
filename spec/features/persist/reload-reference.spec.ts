import { firstValueFrom, toArray } from 'rxjs';
import { createClient } from '../../../lib/client/create-client';
import { reloadSafe } from '../../../lib/features/persist';
import { startReferenceBackend, type ReferenceBackend } from '../../../lib/testing';
import type { Client } from '../../../lib/store/billing-module';
import { FakeLocks } from '../../helpers/fake-locks';
import { MemoryStorage } from '../../helpers/memory-storage';
import { VirtualClock } from '../../helpers/virtual-clock';
import { until } from '../../helpers/waiting';

const CONSUME = '/ai/v5/service/free_trial';
let backend: ReferenceBackend;
const live: Client[] = [];
const locks = new FakeLocks();

beforeAll(async () => {
  backend = await startReferenceBackend({
    users: [{ token: 't1', freeRemaining: 0, freeTotal: 5, creditsPerUse: 2, creditsBalance: 10 }],
  });
});
afterEach(() => live.splice(0).forEach((client) => client.billing.dispose()));
afterAll(() => backend.close());

function page(storage: MemoryStorage): Client {
  const client = createClient({
    baseUrl: backend.url,
    appKey: 'poster',
    headers: { Authorization: 'Bearer t1' },
    scheduler: new VirtualClock(),
    storage: reloadSafe(storage, { perTab: true, locks: locks.forTab(live.length) }),
    retries: 0,
  });
  live.push(client);
  return client;
}

it('over real HTTP: a page gone while its POST stalls is charged once, by the replay, in credits', async () => {
  const storage = new MemoryStorage();
  backend.failNext(CONSUME, 1, { kind: 'stall' });
  void page(storage)
    .billing.consume({ externalId: 'export-42' })
    .catch(() => undefined);
  await until(() => backend.requests().some((request) => request.path === CONSUME), 'the POST to reach the backend');
  // The page is gone (its lock with it); what it left in storage stays.
  locks.kill(0);
  const reloaded = page(storage);
  expect(await firstValueFrom(reloaded.billing.recovered$.pipe(toArray()))).toEqual([
    {
      externalId: 'export-42',
      outcome: { ok: true, result: { freeRemaining: 0, isCredit: true, isBlacklisted: false } },
    },
  ]);
  expect(backend.charges()).toEqual([expect.objectContaining({ externalId: 'export-42', kind: 'credits', amount: 2 })]);
  expect(backend.getUser('t1').creditsBalance).toBe(8);
});
