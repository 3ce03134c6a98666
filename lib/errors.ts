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
}

/**
 * The one error class of the library. Messages never contain header values.
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

  constructor(code: BillingErrorCode, message: string, details: BillingErrorDetails = {}) {
    super(message);
    // Keeps `instanceof` working when compiled to ES5-style classes by a consumer's bundler.
    Object.setPrototypeOf(this, new.target.prototype);
    this.code = code;
    if (details.status !== undefined) this.status = details.status;
    if (details.backendCode !== undefined) this.backendCode = details.backendCode;
    if (details.externalId !== undefined) this.externalId = details.externalId;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }

  /** A copy that names the consume's `externalId`. */
  withExternalId(externalId: string): BillingError {
    const { status, backendCode, retryAfterMs } = this;
    const copy = new BillingError(this.code, this.message, { status, backendCode, externalId, retryAfterMs });
    copy.stack = this.stack;
    return copy;
  }

  /** What `JSON.stringify(error)` shows: the code and facts, never a header value. */
  toJSON(): Record<string, unknown> {
    const { name, code, message, status, backendCode, externalId } = this;
    return { name, code, message, status, backendCode, externalId };
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
