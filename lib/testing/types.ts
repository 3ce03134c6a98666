/**
 * One user of the reference backend, as given to `startReferenceBackend`.
 *
 * The credits balance is a user-level wallet shared by every module; the free
 * quota is per module: each module a user touches starts from
 * `freeRemaining` / `freeTotal` the first time the backend sees it.
 *
 * @example
 * ```ts
 * const alice: ReferenceUser = {
 *   token: 'alice-token',
 *   freeRemaining: 3,
 *   freeTotal: 3,
 *   creditsPerUse: 10,
 *   creditsBalance: 25,
 * };
 * ```
 */
export interface ReferenceUser {
  /** Bearer token that identifies the user (`Authorization: Bearer <token>`). */
  token: string;
  /** Free uses each module starts with (integer >= 0). */
  freeRemaining: number;
  /** Free uses each module is granted in total (integer >= 0). */
  freeTotal: number;
  /** Credits deducted by one use once the module's free quota is exhausted. */
  creditsPerUse: number;
  /** The user's credits wallet, shared by all modules. */
  creditsBalance: number;
  /** Blacklisted users get code 20102 on every consume. Default `false`. */
  blacklisted?: boolean;
  /** Reported as `is_enabled`; it does not change how charges are decided. Default `true`. */
  isEnabled?: boolean;
}

/**
 * A change to a user, for `ReferenceBackend.setUser`. `creditsBalance`,
 * `creditsPerUse`, `blacklisted` and `isEnabled` are user-level;
 * `freeRemaining` and `freeTotal` apply to every module of the user (and to
 * modules not seen yet), or to one module when `setUser` is given one.
 *
 * @example
 * ```ts
 * const topUp: ReferenceUserPatch = { creditsBalance: 100 };
 * const exhaustFreeQuota: ReferenceUserPatch = { freeRemaining: 0 };
 * ```
 */
export type ReferenceUserPatch = Partial<Omit<ReferenceUser, 'token'>>;

/**
 * The free quota of one module of one user.
 *
 * @example
 * ```ts
 * const quota: ModuleQuota = { freeRemaining: 2, freeTotal: 3 };
 * ```
 */
export interface ModuleQuota {
  freeRemaining: number;
  freeTotal: number;
}

/**
 * A copy of a user's state, from `ReferenceBackend.getUser`. Without a module,
 * `freeRemaining` / `freeTotal` are what a module not seen yet would start
 * with; with one, they are that module's current quota.
 *
 * @example
 * ```ts
 * const user: ReferenceUserSnapshot = backend.getUser('alice-token', 'generator_demo');
 * expect(user.creditsBalance).toBe(15);
 * expect(user.modules['generator_demo']).toEqual({ freeRemaining: 0, freeTotal: 3 });
 * ```
 */
export interface ReferenceUserSnapshot {
  token: string;
  freeRemaining: number;
  freeTotal: number;
  creditsPerUse: number;
  creditsBalance: number;
  blacklisted: boolean;
  isEnabled: boolean;
  /** Every module the backend has seen for this user, by module value. */
  modules: Record<string, ModuleQuota>;
}

/**
 * One charge the backend applied (code 0, not a replay), in the order applied.
 * `amount` is 1 for a free use and the credits deducted for a credit use.
 *
 * @example
 * ```ts
 * expect(backend.charges()).toEqual([
 *   { token: 'alice-token', module: 'generator_demo', externalId: 'op-1', kind: 'free', amount: 1 },
 * ]);
 * ```
 */
export interface ChargeRecord {
  token: string;
  module: string;
  externalId: string;
  kind: 'free' | 'credits';
  amount: number;
}

/**
 * One request the backend received, in order of arrival.
 *
 * @example
 * ```ts
 * const posts: RequestRecord[] = backend.requests().filter((r) => r.method === 'POST');
 * expect(posts.map((r) => r.status)).toEqual([200]);
 * ```
 */
export interface RequestRecord {
  method: string;
  /** Path without the query string, as sent. */
  path: string;
  /** Query parameters; for a repeated name, the first value. */
  query: Record<string, string>;
  /** The bearer token as sent, when the request carried one. */
  token?: string;
  /** The body: parsed JSON when it parsed, else the text read (none when too large or unread). */
  body?: unknown;
  /** HTTP status answered; `null` while pending or when the socket was dropped. */
  status: number | null;
  /** The `code` of the JSON answer, when one was decided. */
  code?: number;
  /** The injected fault this request got, if any. */
  fault?: FaultKind;
  /** `Date.now()` on arrival. */
  at: number;
}

/**
 * A fault to inject with `ReferenceBackend.failNext`:
 * - `drop`: destroy the socket without an answer, before anything is applied;
 * - `dropAfterApply`: handle the request (a consume is charged), then destroy
 *   the socket, so the client never sees the answer;
 * - `status`: answer this HTTP status (400..599, e.g. 429 or 503) with a JSON
 *   error body and an optional `Retry-After` header; nothing is applied;
 * - `delay`: wait `ms` milliseconds (real time, also under fake timers), then handle normally;
 * - `malformed`: answer this raw body (status default 200, content type
 *   default `application/json`, as a broken backend would); nothing is applied;
 * - `stall`: send the headers and the start of a body, then never finish
 *   until `close()`; nothing is applied.
 *
 * @example
 * ```ts
 * backend.failNext('/ai/v5/service/free_trial', 1, { kind: 'status', status: 503, retryAfter: '1' });
 * backend.failNext('/ai/v1/credit/getBalance', 2, { kind: 'malformed', body: '<html>oops</html>' });
 * ```
 */
export type Fault =
  | { kind: 'drop' }
  | { kind: 'dropAfterApply' }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformed'; body: string; status?: number; contentType?: string }
  | { kind: 'stall' };

/**
 * The name of a fault kind.
 *
 * @example
 * ```ts
 * const kinds: FaultKind[] = ['drop', 'stall'];
 * ```
 */
export type FaultKind = Fault['kind'];

/**
 * A change of one user's state that another client may want to hear of, as
 * `ReferenceBackend.changes(token)` tells it (and the event stream at
 * `REFERENCE_CHANGES_PATH` sends it): a `top-up` (`topUp()`, as an admin or
 * another device would), or a `charge` applied by a consume. `device` is the
 * `billing_device` cookie of the consume that charged, when it had one.
 * `setUser()` tells nothing: it is the test's own hand on the state.
 *
 * @example
 * ```ts
 * backend.changes('alice-token').subscribe((change: ReferenceChange) => console.log(change.kind));
 * ```
 */
export interface ReferenceChange {
  readonly kind: 'top-up' | 'charge';
  readonly device?: string;
}
