import type { BillingFeature } from './feature';
import type { BillingStatus } from '../core/billing-status';
import type { UsageInfo } from '../shared/types';

/**
 * The client's public state as a DevTools panel is sent it, once
 * `reduxDevtools()` has whitelisted it: its status error shows as
 * `{ code, status?, backendCode? }`, never a message or a header value.
 *
 * @example
 * ```ts
 * const shown: DevtoolsState = { usage: null, status: billing.getStatus(), freePeriodEndsAt: null };
 * ```
 */
export interface DevtoolsState {
  usage: UsageInfo | null;
  status: BillingStatus;
  /** Wall-clock ms; `null` when no free period is active. */
  freePeriodEndsAt: number | null;
}

/**
 * One client's link to a DevTools panel, as `reduxDevtools()` opens it when
 * the client is created.
 *
 * @example
 * ```ts
 * const connection: DevtoolsConnection = { send: (action, state) => log(action.type, state), close: () => undefined };
 * ```
 */
export interface DevtoolsConnection {
  /** After every action the reducer applied, with the state it left. */
  send(action: { readonly type: string }, state: DevtoolsState): void;
  /** On `dispose()`; nothing is sent after. */
  close(): void;
}

/**
 * The `devtools` option, made by `reduxDevtools()` from
 * `unified-billing/devtools`: a {@link BillingFeature} like `tabSync()`, so
 * its code is in no bundle that does not import that entry.
 *
 * @example
 * ```ts
 * import { reduxDevtools } from 'unified-billing/devtools';
 *
 * const devtools: DevtoolsHook = reduxDevtools();
 * createClient({ baseUrl, appKey: 'poster', devtools });
 * ```
 */
export type DevtoolsHook = BillingFeature<'devtools'>;
