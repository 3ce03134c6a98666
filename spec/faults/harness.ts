import { randomBytes } from 'node:crypto';
import type { ReferenceUser } from '../../lib/testing/types';
import type { ClientOptions } from '../../lib/options';
import type { FetchLike } from '../../lib/types';
import { drivenClient } from '../helpers/drive';

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

/** A client wired for the matrix (virtual time, the backend's transport behind a wire) and all it emitted, serialised, for the canary search. */
export type Harness = ReturnType<typeof drivenClient> & { readonly seen: string[] };

export function makeHarness(
  url: string,
  token: string,
  options: Partial<ClientOptions> = {},
  transport: FetchLike,
): Harness {
  const { client, clock, wire, run } = drivenClient(
    transport,
    { baseUrl: url, headers: { Authorization: `Bearer ${token}`, 'X-Canary': CANARY }, ...options },
    // Long patience, so a slow machine never looks like a stall; deliberate stalls are parked and skipped.
    10_000,
  );
  const seen: string[] = [];
  const note = (value: unknown) => seen.push(JSON.stringify(value));
  client.billing.usage$.subscribe(note);
  client.billing.freePeriodRemaining$.subscribe(note);
  client.billing.onChange(note);
  return { client, clock, wire, run, seen };
}
