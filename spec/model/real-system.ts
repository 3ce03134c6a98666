import crossFetch from 'cross-fetch';
import { createClient } from '../../lib/client/create-client';
import { startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import type { Client } from '../../lib/store/billing-module';
import type { FetchLike } from '../../lib/shared/types';
import { drive, trackingFetch } from '../helpers/drive';
import { VirtualClock } from '../helpers/virtual-clock';
import { loggingFetch, type SentRequest } from '../helpers/wire-log';
import type { Model } from './model-state';

export const TOKEN = 'model-user';
export const MODULE = 'generator_poster';

/** The system under test: the real client, on virtual time, against a real reference backend. */
export interface Real {
  readonly backend: ReferenceBackend;
  readonly client: Client;
  readonly clock: VirtualClock;
  readonly sent: SentRequest[];
  run<T>(promise: Promise<T>): Promise<T>;
}

export interface InitialQuota {
  readonly free: number;
  readonly freeTotal: number;
  readonly price: number;
  readonly balance: number;
}

export async function startSystem(initial: InitialQuota): Promise<{ model: Model; real: Real }> {
  const backend = await startReferenceBackend({
    users: [
      {
        token: TOKEN,
        freeRemaining: initial.free,
        freeTotal: initial.freeTotal,
        creditsPerUse: initial.price,
        creditsBalance: initial.balance,
      },
    ],
  });
  const clock = new VirtualClock();
  const { fetch: logged, sent } = loggingFetch(crossFetch as FetchLike, clock);
  const { fetch, inFlight } = trackingFetch(logged);
  const client = createClient({
    baseUrl: backend.url,
    appKey: 'poster',
    headers: { Authorization: `Bearer ${TOKEN}` },
    scheduler: clock,
    fetch,
  });
  const run = async <T>(promise: Promise<T>): Promise<T> => {
    let settled = false;
    const watched = promise.finally(() => (settled = true));
    watched.catch(() => undefined);
    // Generous patience: no fault here stalls, so virtual time must only move between exchanges.
    await drive(clock, inFlight, () => settled, { patienceMs: 5_000, maxSteps: 200 });
    if (!settled) throw new Error('the command never settled');
    return watched;
  };
  const model: Model = {
    backend: {
      free: initial.free,
      freeTotal: initial.freeTotal,
      price: initial.price,
      balance: initial.balance,
      blacklisted: false,
      applied: new Map(),
      charges: [],
    },
    client: { quota: null, freePeriodEnd: null },
    faults: new Map(),
  };
  return { model, real: { backend, client, clock, sent, run } };
}

export async function stopSystem(real: Real): Promise<void> {
  real.client.billing.dispose();
  await real.backend.close();
}
