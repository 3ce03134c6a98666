import type { SchedulerLike } from 'rxjs';
import { invalid, missingGlobal, unlessThrows } from '../shared/errors';
import { checkFields, integer, type Rule } from '../shared/option-names';
import { monotonicScheduler } from '../shared/scheduler';
import { checkSnapshot } from '../core/snapshot';
import { checkedHeaders } from '../transport/headers';
import { defaultRetryPolicy } from '../transport/retry-policy';
import type { ClientOptions } from './client-options';

export type { ClientOptions, RefetchTakesRefetchOn } from './client-options';

const isFunction = (value: unknown) => typeof value === 'function';
// What a rule says is read in development only (shared/dev.ts).
const FUNCTION: Rule = [isFunction, __DEV__ ? 'a function' : ''];
// A feature carries the kind its factory stamped, which is the option's name.
const isFeature = (value: { kind?: unknown; install?: unknown } | null, name: string) =>
  value?.kind === name && isFunction(value.install);

// Every option, checked when given (not undefined); its keys are also the valid names, so the
// type keeps them in step with ClientOptions. The two required ones and `bootstrap` are checked
// below, the removed `onEvent` (no valid name, so never suggested) above; a bad headers record
// throws its own message.
const RULES: Record<Exclude<keyof ClientOptions, 'onEvent'>, Rule | null> = {
  baseUrl: null,
  appKey: null,
  headers: [(value) => isFunction(value) || checkedHeaders(value), ''],
  fetch: FUNCTION,
  scheduler: [
    (value: Partial<SchedulerLike> | null) => isFunction(value?.now) && isFunction(value?.schedule),
    __DEV__ ? 'an RxJS scheduler (now() and schedule())' : '',
  ],
  timeoutMs: integer(1, 600_000),
  retries: integer(0, 10),
  storage: [isFeature, __DEV__ ? 'made by reloadSafe(storage)' : ''],
  sync: [isFeature, __DEV__ ? 'made by tabSync()' : ''],
  scope: [
    (value: unknown) => typeof value === 'string' && value !== '' && value.length <= 200,
    __DEV__ ? 'a string of 1 to 200 characters' : '',
  ],
  refetch: [isFeature, __DEV__ ? 'made by refetchOn()' : ''],
  events: [isFeature, __DEV__ ? 'made by billingEvents()' : ''],
  onUnauthorized: FUNCTION,
  bootstrap: null,
  devtools: [isFeature, __DEV__ ? 'made by reduxDevtools()' : ''],
};

// Refuses a 0.1 refetch object (not a feature), naming the refetchOn() call that does what it asked, so
// that copying it changes nothing: `{ onFocus: true, intervalMs: 60000 }` is `refetchOn({ focus: true,
// intervalMs: 60000 })`. A value that is not a boolean or a number shows as its name only; other fields
// pass as given, for refetchOn() to name.
function oldRefetch(old: unknown): void {
  if (typeof old !== 'object' || old === null || 'install' in old) return;
  const renamed: Record<string, string> = { onFocus: 'focus', onOnline: 'online' };
  const fields = Object.entries(old).map(([key, value]) => {
    const name = /^[A-Za-z_$][\w$]{0,39}$/.test(key) ? (renamed[key] ?? key) : JSON.stringify(key.slice(0, 40));
    return typeof value === 'boolean' || typeof value === 'number' ? `${name}: ${String(value)}` : name;
  });
  const call = `refetchOn({${fields.length > 0 ? ` ${fields.join(', ')} ` : ''}})`;
  invalid(`refetch takes refetchOn() since 0.2.0: write refetch: ${call}`);
}

/**
 * Throws `invalid_argument` for anything `createClient` cannot work with, else
 * gives what validation and the defaults make of the options; the others are
 * then read as given.
 */
export function resolveOptions(options: ClientOptions) {
  if (typeof options !== 'object' || options === null)
    invalid(__DEV__ ? 'createClient needs an options object' : 'invalid options', options);
  // The shapes of 0.1 are refused naming the new way, never ignored: the listener or the
  // refetches would silently stop.
  if (options.onEvent !== undefined) {
    invalid(
      __DEV__
        ? 'onEvent moved to the events feature in 0.2.0: write events: billingEvents({ onEvent })'
        : 'invalid onEvent',
      options.onEvent,
    );
  }
  // In production the refetch rule refuses it, as `invalid refetch` (and the option is not even read here).
  if (__DEV__) oldRefetch(options.refetch);
  checkFields(options, RULES);
  const { baseUrl, appKey } = options;
  // A bare Hermes has neither (React Native 0.86 has both): named here, not blamed on baseUrl or left as a
  // ReferenceError at the first request.
  for (const name of ['AbortController', 'URL'] as const) {
    if (typeof globalThis[name] !== 'function') missingGlobal(name);
  }
  const url = unlessThrows(() => new URL(baseUrl));
  // Only what is wrong with the URL is said: it may embed a credential.
  if (!/^https?:$/.test(url?.protocol as string) || url!.username || url!.password || /[?#]/.test(baseUrl)) {
    invalid(
      __DEV__ ? 'baseUrl must be an absolute http(s) URL without credentials, query or fragment' : 'invalid baseUrl',
    );
  }
  // A lone surrogate cannot be URL-encoded: refused here, not as a URIError at the first request.
  if (typeof appKey !== 'string' || !unlessThrows(() => encodeURIComponent(appKey))) {
    invalid(__DEV__ ? 'appKey must be a non-empty, well-formed string' : 'invalid appKey', appKey);
  }
  return {
    // Normalized, without a trailing slash.
    baseUrl: url!.href.replace(/\/+$/, ''),
    scheduler: options.scheduler ?? monotonicScheduler,
    timeoutMs: options.timeoutMs ?? 10_000,
    policy: { ...defaultRetryPolicy, retries: options.retries ?? 2 },
    scope: options.scope ?? `generator_${appKey}`,
    bootstrap: checkSnapshot(options.bootstrap),
  };
}
