import type { BillingAction } from './core/actions';
import type { BillingState } from './core/state';
import { toUsageInfo } from './core/usage-view';
import type { BillingStatus } from './status/billing-status';
import type { UsageInfo } from './types';

/**
 * The client's public state as a DevTools panel shows it: JSON-safe (an
 * error is `{ code, message }`), never a header value.
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
 * One client's link to a DevTools panel, as `connect` opened it.
 *
 * @example
 * ```ts
 * const connection: DevtoolsConnection = { send: (action, state) => log(action.type, state), close: () => undefined };
 * ```
 */
export interface DevtoolsConnection {
  /** After every action the reducer applied, with the state it left. */
  send(action: { readonly type: string } & Record<string, unknown>, state: DevtoolsState): void;
  /** On `dispose()`; nothing is sent after. */
  close(): void;
}

/**
 * The `devtools` option: `reduxDevtools()` from `unified-billing/devtools`
 * makes one; `connect` is called once, at creation, and may return `null`
 * (no extension present).
 *
 * @example
 * ```ts
 * const devtools: DevtoolsHook = { connect: (scope, initial) => (console.log(scope, initial), null) };
 * createClient({ baseUrl, appKey: 'poster', devtools });
 * ```
 */
export interface DevtoolsHook {
  /** Called once as the client is created, with its scope and its state then; `null` when there is no panel. */
  connect(scope: string, initial: DevtoolsState): DevtoolsConnection | null;
}

// An error as DevTools may keep it: its code and its (redacted) message, nothing else.
const safe = (value: unknown): unknown =>
  value instanceof Error ? { code: (value as { code?: unknown }).code, message: value.message } : value;

/** An action as DevTools is sent it: its fields, an error as `{ code, message }`. */
export function devtoolsAction(action: BillingAction): { readonly type: string } & Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(action)) sent[key] = safe(value);
  return sent as { readonly type: string } & Record<string, unknown>;
}

/** The state DevTools is sent: the usage now, the status, the free period's end on the wall clock. */
export function devtoolsState(state: BillingState, now: number, wallNow: () => number): DevtoolsState {
  const { status, freePeriodEnd } = state;
  return {
    usage: toUsageInfo(state, now),
    status: { ...status, error: safe(status.error) } as BillingStatus,
    freePeriodEndsAt:
      freePeriodEnd !== null && freePeriodEnd > now ? Math.round(wallNow() + freePeriodEnd - now) : null,
  };
}
