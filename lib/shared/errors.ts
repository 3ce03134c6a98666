/**
 * Every way a call of the client can fail.
 *
 * @example
 * ```ts
 * const retryable: BillingErrorCode[] = ['network', 'timeout'];
 * ```
 */
export type BillingErrorCode =
  | 'network'
  | 'timeout'
  | 'http'
  | 'backend'
  | 'decode'
  | 'insufficient_credits'
  | 'aborted'
  | 'disposed'
  | 'invalid_argument';

/**
 * Facts attached to a {@link BillingError} where known.
 *
 * @example
 * ```ts
 * const details: BillingErrorDetails = { status: 503, externalId: crypto.randomUUID() };
 * ```
 */
export interface BillingErrorDetails {
  readonly status?: number;
  readonly backendCode?: number;
  /** On errors of `consume()`: the id used, so a retry cannot charge twice. */
  readonly externalId?: string;
  /** On 429/503 with a valid `Retry-After`: the wait the server asked for, clamped. */
  readonly retryAfterMs?: number;
  /**
   * What went wrong underneath (ES2022 `Error.cause`). On `network` errors a
   * sanitized copy of the fetch error (its `name`, `code` and redacted
   * message), never the fetch error itself.
   */
  readonly cause?: unknown;
}

// Shared by every copy of the library in a realm (ESM and CJS builds, two
// bundles): `Symbol.for` returns the same symbol for the same key.
const BRAND = Symbol.for('unified-billing.error');

/**
 * The one error class of the library. Messages never contain header values.
 * `instanceof BillingError` and {@link isBillingError} also recognise errors
 * made by another copy of the library (an app that loads both the ESM and the
 * CJS build), by a brand rather than by prototype.
 *
 * @example
 * ```ts
 * const externalId = crypto.randomUUID(); // one id per user action
 * try {
 *   await client.billing.consume({ externalId });
 * } catch (error) {
 *   if (error instanceof BillingError && error.code === 'insufficient_credits') showTopUp();
 *   else if (error instanceof BillingError && error.externalId) retryLater(error.externalId);
 * }
 * ```
 */
export class BillingError extends Error {
  override readonly name = 'BillingError';
  readonly code: BillingErrorCode;
  readonly status?: number;
  readonly backendCode?: number;
  readonly externalId?: string;
  readonly retryAfterMs?: number;

  /** True for any `BillingError`, whichever copy of the library made it. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // Primitives, null and undefined carry no brand (`?.` and a symbol key read nothing from them).
    return (value as { [BRAND]?: unknown } | undefined)?.[BRAND] === true;
  }

  constructor(code: BillingErrorCode, message: string, { cause, ...facts }: BillingErrorDetails = {}) {
    super(message);
    // Keeps the prototype right when compiled to ES5-style classes by a consumer's bundler.
    Object.setPrototypeOf(this, new.target.prototype);
    // Non-enumerable, like `cause`: invisible to JSON and to `toEqual`.
    Object.defineProperty(this, BRAND, { value: true });
    this.code = code;
    // Only the facts given: an absent one is no property at all (`toEqual`, `in`).
    const all: Record<string, unknown> = facts;
    for (const key in all) if (all[key] !== undefined) (this as unknown as typeof all)[key] = all[key];
    // Set by hand: runtimes before ES2022 ignore the options argument of `Error`.
    if (cause !== undefined) Object.defineProperty(this, 'cause', { value: cause, writable: true, configurable: true });
  }

  /** A copy that names the consume's `externalId`. */
  withExternalId(externalId: string): BillingError {
    const copy = new BillingError(this.code, this.message, { ...this, externalId, cause: this.cause });
    copy.stack = this.stack;
    return copy;
  }

  /** What `JSON.stringify(error)` shows: the name, code, message and facts, never a header value or the cause. */
  toJSON(): Record<string, unknown> {
    // The own enumerable fields: the brand and `cause` are not.
    return { ...(this as object), message: this.message };
  }
}

/**
 * Type guard for {@link BillingError}, optionally of one code.
 *
 * @example
 * ```ts
 * if (isBillingError(error, 'disposed')) return;
 * ```
 */
export function isBillingError(error: unknown, code?: BillingErrorCode): error is BillingError {
  return error instanceof BillingError && (code === undefined || error.code === code);
}

/** The error of a call its caller's signal aborted (a request, or a wait for one). */
export const abortedError = (): BillingError => new BillingError('aborted', 'The call was aborted');

// What a bad value shows in a development message: numbers, booleans, `null` and `undefined` as they
// are, anything else by its kind only (a string or an object may hold a credential).
function shown(value: unknown): string {
  const kind = typeof value;
  return value === null || /^[unb]/.test(kind) ? String(value) : kind === 'object' ? 'an object' : `a ${kind}`;
}

/**
 * Throws `invalid_argument` with `message`, followed in development
 * (shared/dev.ts) by what the option got when a value is given (see `shown`).
 */
export function invalid(message: string, ...got: [unknown?]): never {
  throw new BillingError('invalid_argument', __DEV__ && got.length ? `${message} (got ${shown(got[0])})` : message);
}

// What to install or pass where a global is missing; read in development only, so a production
// build keeps none of it.
const GLOBAL_FIXES = {
  crypto:
    "import 'react-native-get-random-values' before this package in React Native (on Node 18, run with " +
    '--experimental-global-webcrypto), or pass consume({ externalId }) yourself',
  URL: 'install a URL polyfill such as react-native-url-polyfill',
  AbortController: 'install an AbortController polyfill',
};

/**
 * Throws `invalid_argument` for a global this runtime lacks (a bare Hermes,
 * React Native without a polyfill), from the call that needs it; in
 * development the message names the fix.
 */
export function missingGlobal(name: keyof typeof GLOBAL_FIXES): never {
  return invalid(__DEV__ ? `This runtime has no global ${name}: ${GLOBAL_FIXES[name]}` : `no global ${name}`);
}

/** What `make` returns, or `undefined` if it throws (a value that may not be readable, a DevTools call). */
export function unlessThrows<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}
