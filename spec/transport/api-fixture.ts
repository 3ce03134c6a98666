import { createBillingApi, type BillingApi } from '../../lib/transport/billing-api';
import type { TransportConfig } from '../../lib/transport/config';
import { defaultRetryPolicy } from '../../lib/transport/retry-policy';
import { createReferenceBackend, type Fault, type InProcessReferenceBackend } from '../../lib/testing';
import { PATHS } from '../../lib/shared/wire';
import { VirtualClock } from '../helpers/virtual-clock';
import { Wire, type SentRequest } from '../helpers/wire-log';

/** A 401 whose message the client quotes. */
export const DENIED: Fault = {
  kind: 'malformed',
  status: 401,
  body: JSON.stringify({ code: 401, message: 'token expired', data: null }),
};

/** The next `n` requests to any path get `fault`. */
export function failAll(backend: InProcessReferenceBackend, n: number, fault: Fault): void {
  for (const path of Object.values(PATHS)) backend.failNext(path, n, fault);
}

export const authorization = (request: SentRequest): string | undefined => request.headers['Authorization'];

/**
 * An api on a virtual clock (pinned jitter at half the ceiling, two retries)
 * over the in-process reference backend behind a {@link Wire}; the backend's
 * users are `tokens` (the api sends `Bearer old`), each with 2 of 5 free uses
 * left, a price of 3 and a balance of 9. The in-process fetch settles within
 * promise turns, so virtual time alone decides timeouts and retries.
 */
export function fakeApi(
  config: Partial<TransportConfig> = {},
  tokens: readonly string[] = ['old'],
): { api: BillingApi; clock: VirtualClock; backend: InProcessReferenceBackend; wire: Wire; sent: SentRequest[] } {
  const users = tokens.map((token) => ({ token, freeRemaining: 2, freeTotal: 5, creditsPerUse: 3, creditsBalance: 9 }));
  const backend = createReferenceBackend({ users });
  const clock = new VirtualClock();
  const wire = new Wire(backend.fetch, clock);
  const api = createBillingApi(
    {
      baseUrl: 'http://billing.test',
      headers: { Authorization: 'Bearer old' },
      fetch: wire.fetch,
      scheduler: clock,
      timeoutMs: 10_000,
      policy: { ...defaultRetryPolicy, retries: 2, random: () => 0.5 },
      ...config,
    },
    'poster',
  );
  return { api, clock, backend, wire, sent: wire.sent };
}

/** The value or the error of a request, as a record filled as it settles (never a rejected promise). */
export function outcome<T>(pending: Promise<T>): {
  readonly value?: T;
  readonly error?: unknown;
  readonly done: boolean;
} {
  const state: { value?: T; error?: unknown; done: boolean } = { done: false };
  pending.then(
    (value) => Object.assign(state, { value, done: true }),
    (error: unknown) => Object.assign(state, { error, done: true }),
  );
  return state;
}
