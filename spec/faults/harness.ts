import { randomBytes } from 'node:crypto';
import { createClient } from '../../lib/client';
import type { ReferenceUser } from '../../lib/testing/types';
import type { Client } from '../../lib/client-types';
import type { ClientOptions } from '../../lib/options';
import type { FetchLike } from '../../lib/types';
import { openBackend, type BackendKind } from '../helpers/backend-under-test';
import { drive, trackingFetch } from '../helpers/drive';
import { VirtualClock } from '../helpers/virtual-clock';
import { loggingFetch, ResponseGate, type SentRequest } from '../helpers/wire-log';

/** A secret that must never leave the request headers. */
export const CANARY = `canary${randomBytes(6).toString('hex')}`;
export const TOKEN = `tok-${CANARY}`;

export { openBackend, type BackendKind };

export const DEFAULT_USER: Omit<ReferenceUser, 'token'> = {
  freeRemaining: 2,
  freeTotal: 5,
  creditsPerUse: 3,
  creditsBalance: 10,
};

/** A client wired for the matrix: virtual time, the backend's transport, a wire log, client-side faults, observed views. */
export interface Harness {
  readonly client: Client;
  readonly clock: VirtualClock;
  readonly gate: ResponseGate;
  readonly sent: SentRequest[];
  /** Everything the client emitted, serialised, for the canary search. */
  readonly seen: string[];
  /** Settles a promise, moving virtual time whenever no request is in flight. */
  run<T>(promise: Promise<T>): Promise<T>;
}

export function makeHarness(
  url: string,
  token: string,
  options: Partial<ClientOptions> = {},
  transport: FetchLike,
): Harness {
  const clock = new VirtualClock();
  const gate = new ResponseGate();
  const { fetch: logged, sent } = loggingFetch(gate.wrap(transport), clock);
  const { fetch, inFlight } = trackingFetch(logged);
  const client = createClient({
    baseUrl: url,
    appKey: 'poster',
    headers: { Authorization: `Bearer ${token}`, 'X-Canary': CANARY },
    scheduler: clock,
    fetch,
    ...options,
  });
  const seen: string[] = [];
  const note = (value: unknown) => seen.push(JSON.stringify(value));
  client.billing.usage$.subscribe(note);
  client.billing.freePeriodRemaining$.subscribe(note);
  client.billing.onChange(note);
  // Long patience, so a slow machine never looks like a stall; deliberate stalls are parked and skipped.
  const busy = () => inFlight() - gate.parked();
  const run = async <T>(promise: Promise<T>): Promise<T> => {
    let settled = false;
    const watched = promise.finally(() => (settled = true));
    watched.catch(() => undefined);
    await drive(clock, busy, () => settled, { patienceMs: 10_000 });
    if (!settled) throw new Error('the scenario never settled');
    return watched;
  };
  return { client, clock, gate, sent, seen, run };
}
