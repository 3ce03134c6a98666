import { randomBytes } from 'node:crypto';
import { createClient } from '../../lib/client';
import type { ReferenceUser } from '../../lib/testing/types';
import type { Client } from '../../lib/client-types';
import type { ClientOptions } from '../../lib/options';
import type { FetchLike } from '../../lib/types';
import { driven } from '../helpers/drive';
import { VirtualClock } from '../helpers/virtual-clock';
import { Wire } from '../helpers/wire-log';

/** A secret that must never leave the request headers. */
export const CANARY = `canary${randomBytes(6).toString('hex')}`;
export const TOKEN = `tok-${CANARY}`;

/** The matrix's two backends, as its test names call them, and the transport each is reached over. */
export const KINDS = [
  ['in-process', 'in-process fetch'],
  ['reference', 'HTTP'],
] as const;

export const DEFAULT_USER: Omit<ReferenceUser, 'token'> = {
  freeRemaining: 2,
  freeTotal: 5,
  creditsPerUse: 3,
  creditsBalance: 10,
};

/** A client wired for the matrix: virtual time, the backend's transport behind a wire, observed views. */
export interface Harness {
  readonly client: Client;
  readonly clock: VirtualClock;
  readonly wire: Wire;
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
  const wire = new Wire(transport, clock);
  const client = createClient({
    baseUrl: url,
    appKey: 'poster',
    headers: { Authorization: `Bearer ${token}`, 'X-Canary': CANARY },
    scheduler: clock,
    fetch: wire.fetch,
    ...options,
  });
  const seen: string[] = [];
  const note = (value: unknown) => seen.push(JSON.stringify(value));
  client.billing.usage$.subscribe(note);
  client.billing.freePeriodRemaining$.subscribe(note);
  client.billing.onChange(note);
  // Long patience, so a slow machine never looks like a stall; deliberate stalls are parked and skipped.
  const run = <T>(promise: Promise<T>) => driven(clock, () => wire.inFlight(), promise, { patienceMs: 10_000 });
  return { client, clock, wire, seen, run };
}
