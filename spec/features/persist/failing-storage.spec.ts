import { firstValueFrom, toArray } from 'rxjs';
import { createClient } from '../../../lib/client/create-client';
import { reloadSafe } from '../../../lib/features/persist';
import type { Client } from '../../../lib/store/billing-module';
import { BASE_URL, UserBackend } from '../../helpers/client-fixture';
import { VirtualClock } from '../../helpers/virtual-clock';
import { MemoryStorage, quotaError } from '../../helpers/memory-storage';

const live: Client[] = [];
let warn: jest.SpyInstance;
beforeEach(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  live.splice(0).forEach((client) => client.billing.dispose());
  jest.restoreAllMocks();
});

function client(storage: MemoryStorage, backend: UserBackend, clock = new VirtualClock()): Client {
  const made = createClient({
    baseUrl: BASE_URL,
    appKey: 'poster',
    fetch: backend.fetch,
    scheduler: clock,
    storage: reloadSafe(storage),
    headers: { Authorization: 'Bearer secret-token' },
  });
  live.push(made);
  return made;
}

describe('storage that throws', () => {
  it('at start (Safari private mode): billing works in memory, one warning naming only the error class', async () => {
    const storage = new MemoryStorage();
    storage.failWith = quotaError();
    const backend = new UserBackend();
    const clock = new VirtualClock();
    const { billing } = client(storage, backend, clock);
    await billing.getUsage();
    await expect(billing.consume({ externalId: 'a' })).resolves.toMatchObject({ isCredit: false });
    await billing.consume({ externalId: 'b' });
    expect(backend.charged).toEqual(['a']);
    clock.advanceBy(30_000);
    await billing.consume({ externalId: 'c' });
    expect(backend.charged).toEqual(['a', 'c']);
    expect(await firstValueFrom(billing.recovered$.pipe(toArray()))).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toContain('QuotaExceededError');
    expect(message).not.toContain('secret-token');
  });

  it('when the quota fills mid-session: the consume in flight still resolves and the free period still runs', async () => {
    const storage = new MemoryStorage();
    const backend = new UserBackend();
    const { billing } = client(storage, backend);
    await billing.getUsage();
    storage.failWith = quotaError();
    await expect(billing.consume()).resolves.toMatchObject({ freeRemaining: 2 });
    expect(billing.check()).toEqual({ canProceed: true, reason: 'free_period' });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('a throwing non-Error value is reported by its type only', async () => {
    const storage = new MemoryStorage();
    storage.failWith = 'Bearer secret-token' as unknown as Error;
    const { billing } = client(storage, new UserBackend());
    await billing.consume();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).not.toContain('secret');
  });

  it('a storage without the three methods is refused at createClient', () => {
    const make = () =>
      createClient({ baseUrl: BASE_URL, appKey: 'poster', storage: reloadSafe({ getItem: () => null } as never) });
    expect(make).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });
});
