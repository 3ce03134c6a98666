import crossFetch from 'cross-fetch';
import {
  startReferenceBackend,
  type ReferenceBackend,
  type ReferenceUser,
  type RequestRecord,
} from '../../lib/testing';
import type { Client, ClientOptions, FetchLike } from '../../lib';
import { drivenClient } from '../helpers/drive';
import { makeUser } from '../testing/http-helpers';

export { makeUser };

export const APP_KEY = 'poster';
export const MODULE = `generator_${APP_KEY}`;
export { PATH as PATHS } from '../helpers/client-fixture';

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

/** A client of one user on virtual time behind a wire, and this user's requests in the backend's log, in arrival order. */
export type Live = ReturnType<typeof drivenClient> & {
  readonly user: ReferenceUser;
  requests(path?: string): RequestRecord[];
};

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
  const driven = drivenClient(crossFetch as FetchLike, {
    baseUrl: backend.url,
    appKey: APP_KEY,
    headers,
    ...options,
  });
  live.push(driven.client);
  return {
    ...driven,
    user,
    requests: (path) =>
      backend.requests().filter((r) => r.token === user.token && (path === undefined || r.path === path)),
  };
}

/** `METHOD path` of each record, for compact assertions on the wire. */
export const wire = (records: readonly RequestRecord[]): string[] => records.map((r) => `${r.method} ${r.path}`);

/** The `external_id` each consume POST carried (the backend's log, or the wire's: faults that answer without reading the body leave it out of the backend's). */
export const externalIds = (records: ReadonlyArray<{ method: string; body?: unknown }>): unknown[] =>
  records.filter((r) => r.method === 'POST').map((r) => (r.body as { external_id?: unknown } | undefined)?.external_id);
