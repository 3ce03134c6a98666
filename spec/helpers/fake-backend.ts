import {
  createReferenceBackend,
  REFERENCE_PATHS,
  type InProcessReferenceBackend,
  type ReferenceUserPatch,
} from '../../lib/testing';
import type { FetchLike } from '../../lib/types';

/** One request as the fake backend saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** A scripted answer: status, raw body, optional content type. */
export interface Scripted {
  readonly status?: number;
  readonly body: string;
  readonly headers?: { readonly 'content-type'?: string };
}

/** The quota the fake serves and charges, per the contract's wire format. */
export interface FakeQuota {
  isEnabled: boolean;
  freeRemaining: number;
  freeTotal: number;
  creditsPerUse: number;
  balance: number;
  blacklisted: boolean;
}

export const ok = (data: unknown): string => JSON.stringify({ code: 0, message: 'ok', data });
export const coded = (code: number, message = 'no'): string => JSON.stringify({ code, message, data: null });

// The one user behind the fake: tests of the client do not test authentication.
const TOKEN = 'fake-backend-user';
const API_PATHS: readonly string[] = Object.values(REFERENCE_PATHS);

/**
 * The in-process reference backend (`createReferenceBackend`, the same rules
 * as the HTTP server) for one user, with what client tests need on top: a
 * log of requests as the client sent them (headers included), answers held
 * until released, and scripted answers per path. Every request is served as
 * that user, whatever credential it carries, and under any path prefix.
 */
export class FakeBackend {
  readonly requests: SeenRequest[] = [];
  /** Reads and writes go to the backend's user: `backend.quota.balance = 7` tops up. */
  readonly quota: FakeQuota;
  private readonly reference: InProcessReferenceBackend;
  private held: Array<() => void> = [];
  holding = false;

  constructor(initial: FakeQuota) {
    this.reference = createReferenceBackend({
      users: [
        {
          token: TOKEN,
          freeRemaining: initial.freeRemaining,
          freeTotal: initial.freeTotal,
          creditsPerUse: initial.creditsPerUse,
          creditsBalance: initial.balance,
          blacklisted: initial.blacklisted,
          isEnabled: initial.isEnabled,
        },
      ],
    });
    this.quota = liveQuota(this.reference);
  }

  /** The `external_id` of every applied charge, in order. */
  get charged(): string[] {
    return this.reference.charges().map((charge) => charge.externalId);
  }

  /** The next answers to `path`, in order, instead of the real ones (nothing is applied). */
  script(path: string, ...answers: Scripted[]): void {
    for (const answer of answers) {
      this.reference.failNext(apiPath(path), 1, {
        kind: 'malformed',
        body: answer.body,
        status: answer.status ?? 200,
        ...(answer.headers?.['content-type'] === undefined ? {} : { contentType: answer.headers['content-type'] }),
      });
    }
  }

  /** Answers held since `holding` was set go out now. */
  release(): void {
    const held = this.held;
    this.held = [];
    held.forEach((go) => go());
  }

  count(path: string): number {
    return this.requests.filter((request) => request.path === path).length;
  }

  readonly fetch: FetchLike = async (input, init = {}) => {
    const url = new URL(input);
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    this.requests.push({
      method: init.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
    });
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    if (init.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    const served = Object.fromEntries(
      Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
    );
    return this.reference.fetch(`http://fake.test${apiPath(url.pathname)}${url.search}`, {
      ...init,
      headers: { ...served, Authorization: `Bearer ${TOKEN}` },
    });
  };
}

// A baseUrl may carry a prefix (`/gateway`): the fake serves under any.
function apiPath(path: string): string {
  return API_PATHS.find((known) => path.endsWith(known)) ?? path;
}

// One module in practice: its quota once seen, else what it will start with.
function currentUser(reference: InProcessReferenceBackend) {
  const snapshot = reference.getUser(TOKEN);
  const modules = Object.values(snapshot.modules);
  return { ...snapshot, ...(modules.length === 1 ? modules[0] : {}) };
}

// Each field of the fake's quota and the reference user's field it reads and writes.
const FIELDS = {
  isEnabled: 'isEnabled',
  freeRemaining: 'freeRemaining',
  freeTotal: 'freeTotal',
  creditsPerUse: 'creditsPerUse',
  balance: 'creditsBalance',
  blacklisted: 'blacklisted',
} as const satisfies Record<keyof FakeQuota, keyof ReferenceUserPatch>;

function liveQuota(reference: InProcessReferenceBackend): FakeQuota {
  const live = {} as FakeQuota;
  for (const [field, name] of Object.entries(FIELDS)) {
    Object.defineProperty(live, field, {
      enumerable: true,
      get: () => currentUser(reference)[name],
      set: (value: unknown) => reference.setUser(TOKEN, { [name]: value }),
    });
  }
  return live;
}

/** A fresh quota with free uses left. */
export function quota(patch: Partial<FakeQuota> = {}): FakeQuota {
  return {
    isEnabled: true,
    freeRemaining: 3,
    freeTotal: 5,
    creditsPerUse: 2,
    balance: 10,
    blacklisted: false,
    ...patch,
  };
}
