import { getEventListeners } from 'node:events';
import { asyncScheduler, firstValueFrom } from 'rxjs';
import { startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import { createBillingApi } from '../../lib/transport/billing-api';
import { observedApi } from './fake-api';
import { defaultRetryPolicy } from '../../lib/transport/retry-policy';
import type { FetchLike } from '../../lib/types';

const TOKEN = 'tok-signals-4b2e';
let backend: ReferenceBackend;
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

beforeAll(async () => {
  backend = await startReferenceBackend({
    users: [{ token: TOKEN, freeRemaining: 1_000, freeTotal: 1_000, creditsPerUse: 1, creditsBalance: 0 }],
  });
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await backend.close();
});

// Node's own fetch (undici) keeps its abort listeners on a signal until GC:
// a signal shared by many requests piles them up (and, past a runtime's
// limit, makes Node print a leak warning).
describe("shared abort signals under Node's own fetch", () => {
  it('after many sequential and concurrent calls no signal holds more than a generation of listeners, and no warning', async () => {
    const signals = new Set<AbortSignal>();
    const fetch: FetchLike = (input, init) => {
      if (init?.signal) signals.add(init.signal);
      return globalThis.fetch(input, init);
    };
    const api = observedApi(
      createBillingApi(
        {
          baseUrl: backend.url,
          headers: { Authorization: `Bearer ${TOKEN}` },
          fetch,
          scheduler: asyncScheduler,
          timeoutMs: 10_000,
          policy: { ...defaultRetryPolicy, retries: 0 },
        },
        'signals',
      ),
    );
    for (let i = 0; i < 30; i++) await firstValueFrom(api.consume$(`op-${i}`));
    await Promise.all(Array.from({ length: 30 }, () => firstValueFrom(api.balance$())));
    await new Promise((resolve) => setImmediate(resolve));
    expect(backend.charges()).toHaveLength(30);
    const most = Math.max(...[...signals].map((signal) => getEventListeners(signal, 'abort').length));
    // Below 10, the default limit past which Node warns of a leak on an EventTarget.
    expect(most).toBeLessThan(10);
    expect(signals.size).toBeGreaterThan(1);
    expect(warnings.filter((warning) => warning.includes('MaxListeners'))).toEqual([]);
  });
});
