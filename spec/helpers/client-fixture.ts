import { createClient, type Client, type ClientOptions } from '../../lib';
import { createReferenceBackend, REFERENCE_PATHS, type InProcessReferenceBackend } from '../../lib/testing';
import { VirtualClock } from './virtual-clock';
import { Wire } from './wire-log';

export const BASE_URL = 'http://billing.test';
export const PATH = {
  count: REFERENCE_PATHS.freeTrialCount,
  balance: REFERENCE_PATHS.balance,
  consume: REFERENCE_PATHS.consume,
} as const;

export const ok = (data: unknown): string => JSON.stringify({ code: 0, message: 'ok', data });
export const coded = (code: number, message = 'no'): string => JSON.stringify({ code, message, data: null });

const DEFAULT_QUOTA = {
  isEnabled: true,
  freeRemaining: 3,
  freeTotal: 5,
  creditsPerUse: 2,
  balance: 10,
  blacklisted: false,
};
/** The one user's quota, in the test's words. */
export type Quota = typeof DEFAULT_QUOTA;

/** A scripted answer: status, raw body, optional content type. */
export type Scripted = {
  readonly status?: number;
  readonly body: string;
  readonly headers?: { 'content-type'?: string };
};

// The one user behind the backend: tests of the client do not test authentication.
const TOKEN = 'fake-backend-user';
const API_PATHS: readonly string[] = Object.values(REFERENCE_PATHS);
// A baseUrl may carry a prefix (`/gateway`): the backend serves under any.
const apiPath = (path: string) => API_PATHS.find((known) => path.endsWith(known)) ?? path;

/**
 * The in-process reference backend for one user, behind the {@link Wire}
 * (`requests` is what the client sent). Every request is served as that
 * user, whatever credential it carries, and under any path prefix.
 */
export class UserBackend extends Wire {
  readonly requests = this.sent;
  /** Writes go to the backend's user: `backend.quota.balance = 7` tops up. */
  readonly quota: Quota;

  constructor(
    patch: Partial<Quota> = {},
    private readonly reference: InProcessReferenceBackend = createReferenceBackend(),
  ) {
    super((input, init = {}) => {
      const url = new URL(input);
      const headers = Object.entries((init.headers ?? {}) as Record<string, string>);
      const served = headers.filter(([name]) => name.toLowerCase() !== 'authorization');
      return reference.fetch(`http://fake.test${apiPath(url.pathname)}${url.search}`, {
        ...init,
        headers: { ...Object.fromEntries(served), Authorization: `Bearer ${TOKEN}` },
      });
    });
    const { balance, ...rest } = { ...DEFAULT_QUOTA, ...patch };
    reference.addUser({ token: TOKEN, ...rest, creditsBalance: balance });
    const name = (field: string | symbol) => (field === 'balance' ? 'creditsBalance' : String(field));
    this.quota = new Proxy({} as Quota, {
      set: (_, field, value) => (reference.setUser(TOKEN, { [name(field)]: value as unknown }), true),
    });
  }

  /** The `external_id` of every applied charge, in order. */
  get charged(): string[] {
    return this.reference.charges().map((charge) => charge.externalId);
  }

  /** The next answers to `path`, in order, instead of the real ones (nothing is applied). */
  script(path: string, ...answers: Scripted[]): void {
    for (const { body, status = 200, headers } of answers) {
      const contentType = headers?.['content-type'];
      this.reference.failNext(apiPath(path), 1, {
        kind: 'malformed',
        body,
        status,
        ...(contentType && { contentType }),
      });
    }
  }
}

/** A client over a {@link UserBackend} on virtual time, disposed by `cleanup`. */
export interface Fixture {
  readonly client: Client;
  readonly backend: UserBackend;
  readonly clock: VirtualClock;
}

const live: Client[] = [];

export function fixture(patch: Partial<Quota> = {}, options: Partial<ClientOptions> = {}): Fixture {
  const backend = new UserBackend(patch);
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
