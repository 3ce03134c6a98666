import { devtoolsEffect, type DevtoolsHook } from '../features/devtools-hook';
import { unlessThrows } from '../shared/errors';
import type { DevtoolsExtension } from './extension';
import { safeAction, safeState } from './json-safe';

/**
 * Options of {@link reduxDevtools}.
 *
 * @example
 * ```ts
 * const options: ReduxDevtoolsOptions = { name: 'billing (Alice)' };
 * ```
 */
export interface ReduxDevtoolsOptions {
  /** The instance's name in the extension; `unified-billing:<scope>` by default. */
  readonly name?: string;
  /** The extension; `globalThis.__REDUX_DEVTOOLS_EXTENSION__` by default. */
  readonly extension?: DevtoolsExtension | null;
}

// The extension's UI offers only the features set to true: pausing and exporting the log. Its buttons
// that would dispatch back (jump, skip, import...) are absent, since the bridge is read-only.
const READ_ONLY_FEATURES = { pause: true, export: true };

/**
 * Shows a client's actions and state in the Redux DevTools browser extension,
 * read-only: what the extension dispatches back (jump, import) is ignored.
 * Without the extension it does nothing. Only whitelisted fields are sent:
 * numbers, flags, action types and error codes, never a header value, a
 * token or an error message.
 *
 * @example
 * ```ts
 * import { createClient } from 'unified-billing';
 * import { reduxDevtools } from 'unified-billing/devtools';
 *
 * const client = createClient({ baseUrl, appKey: 'generator', devtools: reduxDevtools() });
 * ```
 */
export function reduxDevtools(options: ReduxDevtoolsOptions = {}): DevtoolsHook {
  return {
    kind: 'devtools',
    install(setup) {
      const found = (globalThis as { __REDUX_DEVTOOLS_EXTENSION__?: DevtoolsExtension }).__REDUX_DEVTOOLS_EXTENSION__;
      const extension = options.extension === undefined ? found : options.extension;
      // Whatever the global holds: an extension is anything with a `connect` function.
      if (typeof extension?.connect !== 'function') return {};
      const name = options.name ?? `unified-billing:${setup.scope}`;
      // A DevTools failure must never become a billing failure: a call the extension throws on (a closed port,
      // a state it could not serialize) is dropped, and a `connect` or `init` that throws leaves the client silent.
      const effect = devtoolsEffect(setup, (initial) =>
        unlessThrows(() => {
          const connection = extension.connect({ name, features: READ_ONLY_FEATURES });
          connection.init(safeState(initial));
          return {
            send: (action, state) => void unlessThrows(() => connection.send(safeAction(action), safeState(state))),
            close: () => void unlessThrows(() => connection.unsubscribe?.()),
          };
        }),
      );
      return { effects: [effect] };
    },
  };
}
