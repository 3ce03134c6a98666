import type { BillingError } from './errors';
import type { RecoveredConsume } from './feature-types';
import type { ConsumeOutcome } from './types';

/**
 * Who started a consume: the app (`consume()`), a reload replaying its journal
 * (`reload`), or the holder of the cross-tab consume lock sending again the
 * POST of a tab that died (`tab`).
 *
 * @example
 * ```ts
 * const replayed = (origin: ConsumeOrigin) => origin !== 'app';
 * ```
 */
export type ConsumeOrigin = 'app' | 'reload' | 'tab';

/**
 * One member of {@link BillingEvent} for each type in `Type`: the `type`, its
 * times `at` and `wallTime`, and the `Facts` of that type, all read-only.
 */
type Timed<Type extends string, Facts = unknown> = Type extends string
  ? Flat<{ type: Type; at: number; wallTime: number } & Facts>
  : never;

/**
 * `Fields` as one object type, every field read-only: `& {}` makes editors
 * show the member's fields rather than this alias and its intersections.
 */
type Flat<Fields> = { readonly [Key in keyof Fields]: Fields[Key] } & {};

/**
 * What the end of a consume (or replay) carries: its `call`, its `externalId`
 * (`null` where none was made) and its POST's `attempts`.
 */
type Ended<ExternalId extends string | null = string> = { call: number; externalId: ExternalId; attempts: number };

/**
 * The events of one consume, from its start to its end, and of a replay (a
 * consume another page left unanswered, sent again here): the `consume:*`,
 * `lock:acquired` and `replay:*` members of {@link BillingEvent}, which says
 * what each carries.
 *
 * @example
 * ```ts
 * const ended = (event: ConsumeEvent) => event.type !== 'consume:started' && event.type !== 'lock:acquired';
 * ```
 */
export type ConsumeEvent =
  | Timed<'consume:started', { call: number; externalId: string | null }>
  | Timed<'lock:acquired', { call: number }>
  | Timed<'consume:charged', Ended & { isCredit: boolean }>
  | Timed<'consume:free', Ended<string | null>>
  | Timed<'consume:blacklisted' | 'consume:denied', Ended>
  | Timed<'consume:failed', Ended<string | null> & { error: BillingError; unanswered: boolean }>
  | Timed<'consume:canceled', Ended<string | null> & { reason: 'aborted' | 'disposed'; unanswered: boolean }>
  | Timed<'replay:started', { call: number; externalId: string; origin: 'reload' | 'tab' }>
  | Timed<'replay:settled', Ended & { origin: 'reload' | 'tab'; outcome: ConsumeOutcome }>
  | Timed<'consume:recovered', RecoveredConsume>;

/**
 * What the client did, for logs and traces: `onEvent` and `billing.events$`
 * of the events feature (`events: billingEvents({ onEvent })`). Every event
 * has a `type`, `at` (the scheduler's ms, for durations) and `wallTime` (ms
 * since the epoch). No event carries a header value. Each operation has one
 * start and one end: a consume of the app, a replay (a consume another page
 * left unanswered, sent again here), a usage fetch, a balance refresh.
 * Switch on `type` to narrow:
 *
 * | `type` | when | carries |
 * |---|---|---|
 * | `consume:started` | `consume()` was called | `call`, `externalId` (the caller's, or `null`) |
 * | `lock:acquired` | a consume (or reload replay) holds the cross-tab consume lock (`tabSync`): the time since its start, or since the consume before it ended, is the wait on another tab | `call` |
 * | `consume:charged` | the backend charged a use (code 0) | `call`, `externalId`, `attempts`, `isCredit` |
 * | `consume:free` | a consume in a free period: no request | `call`, `externalId` (the caller's, or `null`), `attempts` (0) |
 * | `consume:denied` | the backend answered 20101 (not enough credits) | `call`, `externalId`, `attempts` |
 * | `consume:blacklisted` | the backend answered 20102 | `call`, `externalId`, `attempts` |
 * | `consume:failed` | `consume()` rejected: an error of billing | `call`, `externalId` (`null` if none was made), `attempts`, `error`, `unanswered` |
 * | `consume:canceled` | `consume()` rejected because the caller aborted or the client was disposed: no error of billing | `call`, `externalId`, `attempts`, `reason` (`aborted`, `disposed`), `unanswered` |
 * | `replay:started` | a consume another page left unanswered is sent again here | `call`, `externalId`, `origin` (`reload`, `tab`) |
 * | `replay:settled` | that replay ended (never a `consume:*` event of this page) | `call`, `externalId`, `origin`, `attempts`, `outcome` |
 * | `consume:recovered` | a replay's outcome was reported on `recovered$` | `externalId`, `outcome` |
 * | `request:retry` | a request is retried after `delayMs` | `attempt` (1 = first retry), `delayMs`, `path`, `externalId` (a consume's POST, else `null`), `code`, `status` |
 * | `request:unauthorized` | a request got 401: it is sent once more after `onUnauthorized` | `path`, `externalId` |
 * | `usage:started` | a usage fetch (both GETs) was started | |
 * | `usage:loaded` | a usage answer was applied | `attempts` |
 * | `usage:failed` / `usage:canceled` | a usage fetch failed / was aborted or disposed | `attempts`, `error` / `reason` |
 * | `refresh:started` | a balance refresh was started (after a credit charge or a refusal, `refreshCredits()`, `getBalance()`) | |
 * | `refresh:loaded` | its answer came | `attempts` |
 * | `refresh:failed` / `refresh:canceled` | it failed / was aborted or disposed | `attempts`, `error` / `reason` |
 * | `freePeriod:started` | a charge started a free period | |
 * | `freePeriod:ended` | the free period ended | |
 *
 * `call` numbers a consume (or replay) in this page, unique across its clients
 * and counted from 1, on its start, lock and end; `attempts` counts its POST's attempts (0 without a
 * request). `unanswered`: the POST went out and no answer told its outcome,
 * so the backend may have charged; a retry with the same `externalId` never
 * charges twice.
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
  | ConsumeEvent
  | Timed<
      'request:retry',
      {
        /** 1 for the first retry, up to the `retries` option. */
        attempt: number;
        delayMs: number;
        /** The request's path without the query, e.g. `/ai/v1/credit/getBalance`. */
        path: string;
        /** The consume's id for its POST; `null` for a GET. */
        externalId: string | null;
        /** Why: the failed attempt's error code (`http`, `network`, `timeout`). */
        code: BillingError['code'];
        /** Its HTTP status, `null` when no answer came. */
        status: number | null;
      }
    >
  | Timed<'request:unauthorized', { path: string; externalId: string | null }>
  | Timed<'usage:started' | 'refresh:started' | 'freePeriod:started' | 'freePeriod:ended'>
  | Timed<'usage:loaded' | 'refresh:loaded', { attempts: number }>
  | Timed<'usage:failed' | 'refresh:failed', { attempts: number; error: BillingError }>
  | Timed<'usage:canceled' | 'refresh:canceled', { attempts: number; reason: 'aborted' | 'disposed' }>;

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
