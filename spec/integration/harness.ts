import crossFetch from 'cross-fetch';
import { createClient } from '../../lib/client';
import {
  startReferenceBackend,
  type ReferenceBackend,
  type ReferenceUser,
  type RequestRecord,
} from '../../lib/testing';
import type { Client } from '../../lib/client-types';
import type { ClientOptions } from '../../lib/options';
import type { FetchLike } from '../../lib/types';
import { driven, trackingFetch } from '../helpers/drive';
import { VirtualClock } from '../helpers/virtual-clock';
import { makeUser } from '../testing/http-helpers';

export { makeUser };

export const APP_KEY = 'poster';
export const MODULE = `generator_${APP_KEY}`;
export const PATHS = {
  count: '/ai/v5/service/free_trial/count',
  balance: '/ai/v1/credit/getBalance',
  consume: '/ai/v5/service/free_trial',
} as const;

/**
 * One reference backend per spec file, on 127.0.0.1 over real HTTP; each test
 * makes its own users (fresh tokens) so tests never see each other's state.
 */
export function useBackend(): () => ReferenceBackend {
  let backend: ReferenceBackend | undefined;
  beforeAll(async () => {
    backend = await startReferenceBackend();
  });
  afterEach(() => {
    live.splice(0).forEach((client) => client.billing.dispose());
  });
  afterAll(async () => {
    await backend?.close();
  });
  return () => {
    if (backend === undefined) throw new Error('the backend is not started');
    return backend;
  };
}

/** A client of one user on virtual time, and how to settle its promises. */
export interface Live {
  readonly client: Client;
  readonly clock: VirtualClock;
  readonly user: ReferenceUser;
  /** Settles a promise, moving virtual time only while no request is in flight. */
  run<T>(promise: Promise<T>): Promise<T>;
  /** This user's requests in the backend's log, in arrival order. */
  requests(path?: string): RequestRecord[];
  /** The largest number of exchanges this client had in flight at once. */
  maxInFlight(): number;
  /**
   * The `external_id` of every POST this client sent, as sent: faults that
   * answer without reading the body leave it out of the backend's log.
   */
  sentExternalIds(): unknown[];
}

const live: Client[] = [];

export function liveClient(
  backend: ReferenceBackend,
  userPatch: Partial<ReferenceUser> = {},
  options: Partial<ClientOptions> = {},
): Live {
  const user = makeUser(userPatch);
  backend.addUser(user);
  return clientFor(backend, user, options);
}

/** Another client (another tab) of a user the backend already knows. */
export function clientFor(backend: ReferenceBackend, user: ReferenceUser, options: Partial<ClientOptions> = {}): Live {
  const clock = new VirtualClock();
  let now = 0;
  let max = 0;
  const sent: unknown[] = [];
  const counting: FetchLike = async (input, init) => {
    max = Math.max(max, ++now);
    if (init?.method === 'POST' && typeof init.body === 'string') {
      sent.push((JSON.parse(init.body) as { external_id?: unknown }).external_id);
    }
    try {
      return await (crossFetch as FetchLike)(input, init);
    } finally {
      now--;
    }
  };
  const tracked = trackingFetch(counting);
  const client = createClient({
    baseUrl: backend.url,
    appKey: APP_KEY,
    headers: { Authorization: `Bearer ${user.token}` },
    fetch: tracked.fetch,
    scheduler: clock,
    ...options,
  });
  live.push(client);
  return {
    client,
    clock,
    user,
    run: (promise) => driven(clock, tracked.inFlight, promise),
    requests: (path) =>
      backend.requests().filter((r) => r.token === user.token && (path === undefined || r.path === path)),
    maxInFlight: () => max,
    sentExternalIds: () => [...sent],
  };
}

/** `METHOD path` of each record, for compact assertions on the wire. */
export const wire = (records: readonly RequestRecord[]): string[] => records.map((r) => `${r.method} ${r.path}`);

/** The `external_id` each consume POST carried. */
export const externalIds = (records: readonly RequestRecord[]): unknown[] =>
  records.filter((r) => r.method === 'POST').map((r) => (r.body as { external_id?: unknown } | undefined)?.external_id);
