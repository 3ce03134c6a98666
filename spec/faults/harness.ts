import { randomBytes } from 'node:crypto';
import type { Fault, ReferenceUser } from '../../lib/testing';
import type { ClientOptions, FetchLike, UsageInfo } from '../../lib';
import { drivenClient } from '../helpers/drive';
import type { ContractBackend } from '../testing/http-helpers';

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

/** How the operation under test ended. */
export type Outcome = { readonly ok: unknown } | { readonly error: unknown };

export async function outcomeOf(promise: Promise<unknown>): Promise<Outcome> {
  return promise.then(
    (ok) => ({ ok }),
    (error: unknown) => ({ error }),
  );
}

export interface ActContext {
  readonly h: Harness;
  readonly backend: ContractBackend;
  readonly token: string;
  /** The externalId this scenario's consume uses. */
  readonly id: string;
}

/** What every scenario asserts once its operation has settled. */
export interface Expectation {
  readonly outcome: { readonly resolves: unknown } | { readonly rejects: Readonly<Record<string, unknown>> };
  /** Requests the client sent after priming, per call. */
  readonly requests: { readonly count: number; readonly balance: number; readonly consume: number };
  /** `external_id` of every POST sent after priming, in order (default none). */
  readonly externalIds?: readonly string[];
  /** Charges the backend applied, by kind, in order (default none). */
  readonly charges?: ReadonlyArray<'free' | 'credits'>;
  /** The cached usage afterwards (`null`: nothing cached). */
  readonly cached: Partial<UsageInfo> | null;
  /** Virtual time the operation took, inclusive bounds. */
  readonly elapsedMs?: readonly [number, number];
}

/** One row of the fault matrix. */
export interface Scenario {
  readonly name: string;
  /** The externalId of the scenario's consume; unique across the matrix. */
  readonly id: string;
  /** The expected behaviour, as the docs table states it. */
  readonly behaviour: string;
  readonly user?: Partial<Omit<ReferenceUser, 'token'>>;
  /** The bearer token the client sends; the scenario's user is registered under `TOKEN` regardless. */
  readonly token?: string;
  /** `getUsage()` before the faults are queued. Default true. */
  readonly prime?: boolean;
  readonly options?: Partial<ClientOptions>;
  /** Queued on the backend after priming, as `[path, n, fault]`. */
  readonly faults?: () => ReadonlyArray<readonly [string, number, Fault]>;
  /** The operation; the default consumes once with the scenario's id. */
  readonly act?: (context: ActContext) => Promise<Outcome>;
  readonly expect: Expectation;
}
