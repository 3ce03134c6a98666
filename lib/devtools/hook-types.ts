// The S4 seam between the engine and a DevTools bridge, shape for shape. Kept here until
// lib/devtools-hook.ts (the engine's copy, exported from lib/index.ts) lands; then this
// file becomes a re-export of it.
import type { UsageInfo } from '../types';
import type { BillingStatus } from '../status/billing-status';

/**
 * The client's public state, as the engine hands it to a DevTools bridge.
 *
 * @example
 * ```ts
 * const state: DevtoolsState = { usage: null, status: billing.getStatus(), freePeriodEndsAt: null };
 * ```
 */
export interface DevtoolsState {
  usage: UsageInfo | null;
  status: BillingStatus;
  freePeriodEndsAt: number | null;
}

/**
 * One client's line to the DevTools: `send` after every applied action, `close` on dispose.
 *
 * @example
 * ```ts
 * connection?.send({ type: 'usage/loaded' }, state);
 * ```
 */
export interface DevtoolsConnection {
  /** After every action the reducer applied, with the state it left. */
  send(action: { readonly type: string } & Record<string, unknown>, state: DevtoolsState): void;
  /** On `dispose()`; nothing is sent after. */
  close(): void;
}

/**
 * What the `devtools` option of `createClient` takes; `null` from `connect` means "nothing to talk to".
 *
 * @example
 * ```ts
 * const connection = hook.connect('generator_app', initialState);
 * ```
 */
export interface DevtoolsHook {
  /** Called once, as the client is created, with its scope and its state then. */
  connect(scope: string, initial: DevtoolsState): DevtoolsConnection | null;
}
