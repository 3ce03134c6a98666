// The part of the Redux DevTools extension's API this bridge uses (its `connect` API,
// the one ngrx, elf and zustand use), typed loosely enough for the real extension and
// for a fake one in a test.
import type { Json } from './json-safe';

/**
 * A connection the extension returns from `connect`.
 *
 * @example
 * ```ts
 * const connection: DevtoolsExtensionConnection = { init() {}, send() {} };
 * ```
 */
export interface DevtoolsExtensionConnection {
  /** The state the instance starts from. */
  init(state: Json): void;
  /** One action and the state after it. */
  send(action: { type: string } & { [key: string]: Json }, state: Json): void;
  /** Listens for what the extension's UI dispatches back; this bridge never calls it (read-only). */
  subscribe?(listener: (message: unknown) => void): (() => void) | void;
  /** Drops the connection's listeners. */
  unsubscribe?(): void;
}

/**
 * `window.__REDUX_DEVTOOLS_EXTENSION__`, or a fake with the same `connect`.
 *
 * @example
 * ```ts
 * const sent: unknown[] = [];
 * const extension: DevtoolsExtension = {
 *   connect: () => ({ init: (state) => sent.push(state), send: (action) => sent.push(action) }),
 * };
 * ```
 */
export interface DevtoolsExtension {
  /** Opens one instance in the extension's panel. */
  connect(options: DevtoolsConnectOptions): DevtoolsExtensionConnection;
}

/**
 * What the bridge asks the extension for: a named instance whose UI offers no time travel.
 *
 * @example
 * ```ts
 * const options: DevtoolsConnectOptions = { name: 'unified-billing:generator_app' };
 * ```
 */
export interface DevtoolsConnectOptions {
  name: string;
  /** The extension's buttons: only pausing and exporting the log, since nothing is dispatched back. */
  features?: Record<string, boolean>;
}
