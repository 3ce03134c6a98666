// The in-process backend's types: nothing here needs Node's types, so a jsdom project without
// @types/node type-checks against them. The HTTP server's are in http/server-types.ts.
import type { Observable } from 'rxjs';
import type {
  ChargeRecord,
  ReferenceChange,
  Fault,
  ReferenceUser,
  ReferenceUserPatch,
  ReferenceUserSnapshot,
  RequestRecord,
} from './types';

/**
 * Options of `createReferenceBackend` (and of `startReferenceBackend`).
 *
 * @example
 * ```ts
 * const options: InProcessBackendOptions = {
 *   users: [{ token: 'alice-token', freeRemaining: 3, freeTotal: 3, creditsPerUse: 10, creditsBalance: 25 }],
 * };
 * ```
 */
export interface InProcessBackendOptions {
  /** The users known at start, and again after `reset()`. Default none. */
  users?: readonly ReferenceUser[];
  /**
   * Lets pages on other origins call the backend (a dev server on its own
   * port): preflights get 204 and every answer carries
   * `Access-Control-Allow-Origin`. `false` answers preflights like any other
   * unknown method (405). Default `true`: it is a dev and test server.
   */
  cors?: boolean;
}

/**
 * A `fetch`-compatible function served by the reference backend in-process:
 * it routes by path (any origin), and needs no socket.
 *
 * @example
 * ```ts
 * const answer = await backend.fetch('http://billing.test/ai/v1/credit/getBalance', {
 *   headers: { Authorization: 'Bearer alice-token' },
 * });
 * ```
 */
export type ReferenceFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * The test hooks of a reference backend: its state, its request log and its
 * fault injection.
 *
 * @example
 * ```ts
 * backend.setUser('alice-token', { freeRemaining: 0 });
 * expect(backend.charges().map((c) => c.kind)).toEqual(['credits']);
 * ```
 */
export interface ReferenceBackendHooks {
  /** Adds a user; throws if the token is taken or the values are invalid. */
  addUser(user: ReferenceUser): void;
  /**
   * Changes a user (see `ReferenceUserPatch`); with `module`, the free quota
   * fields apply to that module only. Throws for an unknown token.
   */
  setUser(token: string, patch: ReferenceUserPatch, module?: string): void;
  /** A copy of a user's state; throws for an unknown token. */
  getUser(token: string, module?: string): ReferenceUserSnapshot;
  /**
   * Adds `credits` (a finite number > 0) to the user's balance, as an admin or
   * another device would, and tells a `top-up` change; returns the new
   * balance. Throws for an unknown token.
   */
  topUp(token: string, credits: number): number;
  /**
   * The user's changes as they happen (see `ReferenceChange`): a top-up, a
   * charge. The same changes go to the event stream at
   * `REFERENCE_CHANGES_PATH` of the HTTP server. Throws for an unknown token.
   */
  changes(token: string): Observable<ReferenceChange>;
  /** How many listen to the user's changes now: subscribers of `changes()` and open event streams. */
  changeListeners(token: string): number;
  /** Applied charges, in order (replays and refusals are not charges). */
  charges(): ChargeRecord[];
  /** Requests received, in order of arrival (copies); CORS preflights are not logged. */
  requests(): RequestRecord[];
  /** Forgets the request log. */
  clearLog(): void;
  /** The next `n` requests to `path` (no query; any method; preflights aside) get `fault`. */
  failNext(path: string, n: number, fault: Fault): void;
  /** Faults still queued for `path`. */
  pendingFaults(path: string): number;
  /**
   * Back to the users given at start: charges, idempotency records, request
   * log and queued faults are forgotten. Requests in flight are not cancelled.
   */
  reset(): void;
}

/**
 * An in-process reference backend: the hooks, and `fetch` to give the client.
 *
 * @example
 * ```ts
 * const backend = createReferenceBackend({ users: [alice] });
 * const client = createClient({
 *   baseUrl: 'http://billing.test',
 *   appKey: 'demo',
 *   headers: { Authorization: 'Bearer alice-token' },
 *   fetch: backend.fetch,
 * });
 * ```
 */
export interface InProcessReferenceBackend extends ReferenceBackendHooks {
  /** Serves a request in-process, through the same handler as the HTTP server. */
  readonly fetch: ReferenceFetch;
  /**
   * Ends stalled bodies, cancels pending delays (their requests fail like a
   * reset connection); later requests fail like a refused connection. Safe to
   * call twice.
   */
  close(): Promise<void>;
}
