// The public types every part of the library shares; they import only the BillingError type, so nothing cycles through them.
import type { BillingError } from './errors';

/**
 * The quota fields as last learned from the backend: the two GETs' answers,
 * kept current by each consume's answer.
 *
 * @example
 * ```ts
 * const { freeRemaining, creditsBalance }: QuotaFields = await client.billing.getUsage();
 * ```
 */
export interface QuotaFields {
  /** `is_enabled` of the free-quota response, reported as received. */
  readonly isEnabled: boolean;
  readonly freeRemaining: number;
  readonly freeTotal: number;
  readonly creditsPerUse: number;
  readonly creditsBalance: number;
}

/**
 * The quota as the spec's `UsageInfo`: what `getUsage()` resolves to, what
 * `getCachedUsage()` returns and what `onChange` / `usage$` deliver.
 *
 * @example
 * ```ts
 * const usage: UsageInfo = await client.billing.getUsage();
 * console.log(`${usage.freeRemaining}/${usage.freeTotal} free uses left`);
 * ```
 */
export interface UsageInfo extends QuotaFields {
  readonly inFreePeriod: boolean;
  /** Whole seconds left in the free period (`ceil`), 0 when none is active. */
  readonly freePeriodRemaining: number;
}

/**
 * Why an operation may (or may not) proceed, in the spec's decision order.
 *
 * @example
 * ```ts
 * const reason: BillingReason = client.billing.check().reason;
 * ```
 */
export type BillingReason = 'free_period' | 'free_count' | 'credits' | 'insufficient';

/**
 * Result of the synchronous `check()`; `canProceed` is false only for `insufficient`.
 *
 * @example
 * ```ts
 * const { canProceed, reason } = client.billing.check();
 * if (!canProceed) showTopUpDialog(reason);
 * ```
 */
export type BillingCheckResult =
  | { readonly canProceed: true; readonly reason: 'free_period' | 'free_count' | 'credits' }
  | { readonly canProceed: false; readonly reason: 'insufficient' };

/**
 * Options of `consume()`.
 *
 * @example
 * ```ts
 * // One id per user action, made when the user clicks; reuse it only to retry this action.
 * const options: ConsumeOptions = { externalId: crypto.randomUUID(), signal: AbortSignal.timeout(5000) };
 * await client.billing.consume(options);
 * ```
 */
export interface ConsumeOptions {
  /**
   * Idempotency key of one user action, 1 to 255 characters; a fresh UUID when
   * omitted. Reuse it only to retry that same action: the backend replays its
   * first answer and charges nothing more, and the client starts a new free
   * period on the replay. Never derive it from what is exported (a document id).
   */
  readonly externalId?: string;
  /**
   * Aborts the call; once the POST is sent, the backend may or may not have charged it (retry with the same
   * `externalId` to learn which).
   *
   * @see {@link https://cdn.jsdelivr.net/npm/unified-billing@0.2.0/docs/decisions.md | docs/decisions.md}, "Abort of a consume"
   */
  readonly signal?: AbortSignal;
}

/**
 * Options of `getUsage()`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const usage = client.billing.getUsage({ signal: controller.signal });
 * ```
 */
export interface GetUsageOptions {
  readonly signal?: AbortSignal;
}

/**
 * Result of `consume()`.
 *
 * @example
 * ```ts
 * const result: BillingConsumeResult = await client.billing.consume();
 * if (result.isBlacklisted) warn('Your account is restricted');
 * ```
 */
export interface BillingConsumeResult {
  readonly freeRemaining: number;
  /** True when this call actually deducted credits. */
  readonly isCredit: boolean;
  /** True when the backend answered 20102; nothing was charged. */
  readonly isBlacklisted: boolean;
}

/**
 * Headers added to every request: a record or a `Headers`, or a function
 * (sync or async) giving one, called before each attempt, so a refreshed token
 * is picked up by retries. Names and values fetch would refuse (CR, LF, NUL,
 * characters beyond Latin-1) are `invalid_argument` and sent nowhere; a
 * function that does not settle within `timeoutMs` fails the attempt `timeout`.
 *
 * @example
 * ```ts
 * const headers: HeadersOption = async () => ({ Authorization: `Bearer ${await auth.token()}` });
 * ```
 */
export type HeadersOption = HeadersValue | (() => HeadersValue | Promise<HeadersValue>);

/**
 * What the `headers` option gives: a record of strings or a `Headers`.
 *
 * @example
 * ```ts
 * const headers: HeadersValue = new Headers({ Authorization: 'Bearer <token>' });
 * ```
 */
export type HeadersValue = Readonly<Record<string, string>> | Headers;

/**
 * The fetch function the transport calls: by default the global `fetch`,
 * read at each request (browsers, Node 18+, React Native).
 *
 * @example
 * ```ts
 * const fetchFn: FetchLike = (url, init) => fetch(url, init);
 * ```
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * How one consume ended: its result, or the error it failed with.
 *
 * @example
 * ```ts
 * const outcome: ConsumeOutcome = { ok: true, result: { freeRemaining: 2, isCredit: false, isBlacklisted: false } };
 * ```
 */
export type ConsumeOutcome =
  { readonly ok: true; readonly result: BillingConsumeResult } | { readonly ok: false; readonly error: BillingError };
