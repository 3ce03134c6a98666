import crossFetch from 'cross-fetch';
import {
  startReferenceBackend,
  type ReferenceBackend,
  type ReferenceUser,
  type RequestRecord,
} from '../../lib/testing';
import type { Client } from '../../lib/client-types';
import type { ClientOptions } from '../../lib/options';
import type { FetchLike } from '../../lib/types';
import { drivenClient } from '../helpers/drive';
import type { VirtualClock } from '../helpers/virtual-clock';
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
  const headers = { Authorization: `Bearer ${user.token}` };
  const { client, clock, wire, run } = drivenClient(crossFetch as FetchLike, {
    baseUrl: backend.url,
    appKey: APP_KEY,
    headers,
    ...options,
  });
  live.push(client);
  return {
    client,
    clock,
    user,
    run,
    requests: (path) =>
      backend.requests().filter((r) => r.token === user.token && (path === undefined || r.path === path)),
    maxInFlight: () => wire.peak,
    sentExternalIds: () => wire.sent.filter((r) => r.method === 'POST').map((r) => r.externalId),
  };
}

/** `METHOD path` of each record, for compact assertions on the wire. */
export const wire = (records: readonly RequestRecord[]): string[] => records.map((r) => `${r.method} ${r.path}`);

/** The `external_id` each consume POST carried. */
export const externalIds = (records: readonly RequestRecord[]): unknown[] =>
  records.filter((r) => r.method === 'POST').map((r) => (r.body as { external_id?: unknown } | undefined)?.external_id);
