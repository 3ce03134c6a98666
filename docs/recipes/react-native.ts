// Recipe: React Native. What the client needs there, and a refresh of the
// quota each time the app comes back to the foreground: `refetchOn({ when })`
// over `AppState`, so no listener is written by hand and `dispose()` removes it.
// The whole story (polyfills, Metro, Jest, a platform table, troubleshooting):
// docs/react-native.md.
//
// 1. Random ids, only if some consume() has no `externalId` of its own. Such a
//    consume's id comes from `crypto.randomUUID()` or `crypto.getRandomValues()`;
//    React Native has neither, so that consume fails with a `BillingError`
//    (`invalid_argument`) naming the polyfill. Either pass
//    `consume({ externalId })` every time, or install
//    `react-native-get-random-values` and import it first in the entry file:
//
//      // index.js
//      import 'react-native-get-random-values';
//      import { AppRegistry } from 'react-native';
//
//    `createClient` itself needs no `crypto`.
// 2. Nothing else. React Native 0.86 has `fetch`, `URL` (with `protocol`),
//    `AbortController` and `performance`; the package has no dependency, and
//    Metro resolves its `react-native` export condition to the one build.
//    The client reads the global `fetch` at each request: no `fetch` option.
// 3. Not `focus`/`online`: React Native's `window` has no events, so they do
//    nothing there (one development warning); `when` over `AppState` below.
// 4. Not for React Native: `tabSync()` (one JavaScript context, no
//    BroadcastChannel). `reloadSafe()` takes any synchronous
//    getItem/setItem/removeItem storage: MMKV through three lines (see
//    docs/react-native.md); AsyncStorage is asynchronous, so not one.
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
    // A live push from your server (live-websocket.ts) can go beside it: `when: merge(foreground$, socket$)`.
    refetch: refetchOn({ when: foreground$ }),
  });
}
