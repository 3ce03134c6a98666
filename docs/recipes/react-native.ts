// Recipe: React Native. What the client needs there, and a refresh of the
// quota each time the app comes back to the foreground: `refetchOn({ when })`
// over `AppState`, so no listener is written by hand and `dispose()` removes it.
//
// 1. Random ids. A consume without an `externalId` gets a UUID from the `uuid`
//    package, which needs `crypto.getRandomValues`; React Native has none.
//    Install `react-native-get-random-values` and import it first in the
//    entry file, before anything that imports unified-billing:
//
//      // index.js
//      import 'react-native-get-random-values';
//      import 'react-native-url-polyfill/auto';
//      import { AppRegistry } from 'react-native';
//
// 2. URL. `createClient` validates `baseUrl` with `URL` and reads its
//    `protocol`; React Native's built-in `URL` has long left that getter
//    unimplemented (it throws "URL.protocol is not implemented"), hence
//    `react-native-url-polyfill/auto` above.
// 3. fetch. Pass React Native's global `fetch` as the `fetch` option, so no
//    other fetch implementation is bundled or chosen for you (below).
// 4. Not for React Native: `tabSync()` (no tabs, no BroadcastChannel), and
//    `reloadSafe(sessionStorage)` (no `sessionStorage`; `reloadSafe` takes
//    any synchronous getItem/setItem/removeItem storage, AsyncStorage is not
//    one).
//
// The hooks of `unified-billing/react` (`useUsage`, `useBillingCheck`,
// `useFreePeriodRemaining`) work unchanged: they only need React.
import { filter, fromEventPattern } from 'rxjs';
import { createClient, refetchOn, type Client } from 'unified-billing';

// react-native is not installed in this repository (and must not be), so this
// file is type-checked against a minimal local declaration of the one part
// it uses. In the app, delete these lines and write instead:
//
//   import { AppState, type AppStateStatus } from 'react-native';
type AppStateStatus = 'active' | 'background' | 'inactive' | 'unknown' | 'extension';
declare const AppState: {
  readonly currentState: AppStateStatus;
  addEventListener(type: 'change', listener: (state: AppStateStatus) => void): { remove(): void };
};

/**
 * Each return of the app to the foreground (`AppState` 'change' to 'active'):
 * the balance may have been topped up elsewhere while it was in the background.
 */
export const foreground$ = fromEventPattern<AppStateStatus>(
  (handler) => AppState.addEventListener('change', handler),
  (_handler, subscription: { remove(): void }) => subscription.remove(),
).pipe(filter((state) => state === 'active'));

/**
 * One client per signed-in user; call `client.billing.dispose()` at sign-out,
 * which also stops listening to `AppState`. Call `getUsage()` once after
 * creating it (or let `useUsage` render its loading state until you do).
 */
export function createAppClient(getToken: () => Promise<string>): Client {
  return createClient({
    baseUrl: 'https://api.example.com',
    appKey: 'poster',
    headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
    // React Native's fetch; the arrow keeps it called as a plain function.
    fetch: (input, init) => fetch(input, init),
    // A live push from your server (live-websocket.ts) can go beside it: `when: merge(foreground$, socket$)`.
    refetch: refetchOn({ when: foreground$ }),
  });
}
