import { createClient } from '../../lib/client';
import type { Client } from '../../lib/client-types';
import type { ClientOptions } from '../../lib/options';
import { FakeBackend, quota, type FakeQuota } from './fake-backend';
import { VirtualClock } from './virtual-clock';

export const BASE_URL = 'http://billing.test';
export const PATH = {
  count: '/ai/v5/service/free_trial/count',
  balance: '/ai/v1/credit/getBalance',
  consume: '/ai/v5/service/free_trial',
} as const;

/** A client over a {@link FakeBackend} on virtual time, disposed by `cleanup`. */
export interface Fixture {
  readonly client: Client;
  readonly backend: FakeBackend;
  readonly clock: VirtualClock;
}

const live: Client[] = [];

export function fixture(patch: Partial<FakeQuota> = {}, options: Partial<ClientOptions> = {}): Fixture {
  const backend = new FakeBackend(quota(patch));
  const clock = new VirtualClock();
  const client = createClient({
    baseUrl: BASE_URL,
    appKey: 'poster',
    fetch: backend.fetch,
    scheduler: clock,
    ...options,
  });
  live.push(client);
  return { client, backend, clock };
}

/** Call from `afterEach`: disposes every client a test made. */
export function cleanup(): void {
  live.splice(0).forEach((client) => client.billing.dispose());
}
