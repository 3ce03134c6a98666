import type { BillingError } from './errors';
import type { ConsumeOutcome } from './types';

/**
 * What the client did, for logs and telemetry: `onEvent` and `billing.events$`
 * of the events feature (`events: billingEvents({ onEvent })`). Every event has a `type` and `at`, the scheduler's clock
 * in ms; consume events carry the consume's `externalId`. No event ever
 * carries a header value. Switch on `type` to narrow:
 *
 * | `type` | when | carries |
 * |---|---|---|
 * | `usage:loaded` | a usage answer was applied | |
 * | `consume:charged` | the backend charged a use (code 0) | `externalId`, `isCredit` |
 * | `consume:free` | a consume in a free period: no request | `externalId` (`null` if the caller gave none) |
 * | `consume:blacklisted` | the backend answered 20102 | `externalId` |
 * | `consume:denied` | the backend answered 20101 | `externalId` |
 * | `consume:failed` | `consume()` rejected for any other reason | `externalId` (`null` if none was made), `error` |
 * | `consume:recovered` | a consume another page left unanswered (a reload, a tab that died) was replayed here and reported on `recovered$` | `externalId`, `outcome` |
 * | `request:retry` | a request is retried after `delayMs` | `attempt` (1 = first retry), `delayMs`, `path` |
 * | `freePeriod:started` | a charge started a free period | |
 * | `freePeriod:ended` | the free period ended | |
 * | `refresh:failed` | a balance refresh failed (after a credit charge, or `refreshCredits()`) | `error` |
 *
 * @example
 * ```ts
 * const client = createClient({
 *   baseUrl,
 *   appKey: 'poster',
 *   events: billingEvents({
 *     onEvent: (event) => {
 *       if (event.type === 'consume:failed') telemetry.track('billing_failed', { code: event.error.code });
 *       if (event.type === 'request:retry') telemetry.track('billing_retry', { path: event.path, attempt: event.attempt });
 *     },
 *   }),
 * });
 * ```
 */
export type BillingEvent =
  | { readonly type: 'usage:loaded'; readonly at: number }
  | { readonly type: 'consume:charged'; readonly at: number; readonly externalId: string; readonly isCredit: boolean }
  | { readonly type: 'consume:free'; readonly at: number; readonly externalId: string | null }
  | { readonly type: 'consume:blacklisted'; readonly at: number; readonly externalId: string }
  | { readonly type: 'consume:denied'; readonly at: number; readonly externalId: string }
  | {
      readonly type: 'consume:failed';
      readonly at: number;
      readonly externalId: string | null;
      readonly error: BillingError;
    }
  | {
      readonly type: 'consume:recovered';
      readonly at: number;
      readonly externalId: string;
      readonly outcome: ConsumeOutcome;
    }
  | {
      readonly type: 'request:retry';
      readonly at: number;
      /** 1 for the first retry, up to the `retries` option. */
      readonly attempt: number;
      readonly delayMs: number;
      /** The request's path without the query, e.g. `/ai/v1/credit/getBalance`. */
      readonly path: string;
    }
  | { readonly type: 'freePeriod:started'; readonly at: number }
  | { readonly type: 'freePeriod:ended'; readonly at: number }
  | { readonly type: 'refresh:failed'; readonly at: number; readonly error: BillingError };

/**
 * The `type` of a {@link BillingEvent}.
 *
 * @example
 * ```ts
 * const counted: BillingEventType[] = ['consume:charged', 'consume:free'];
 * ```
 */
export type BillingEventType = BillingEvent['type'];

/**
 * The event of one `type`, narrowed.
 *
 * @example
 * ```ts
 * const onRetry = (event: BillingEventOf<'request:retry'>) => log(`${event.path} retry ${event.attempt}`);
 * ```
 */
export type BillingEventOf<T extends BillingEventType> = Extract<BillingEvent, { readonly type: T }>;
