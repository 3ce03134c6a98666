import { Observable } from 'rxjs';
import type { Effect } from '../../store/effect';
import type { BillingFeature } from '../feature';
import { armRefetch, checkRefetch, type RefetchOptions } from './refetch';

/**
 * Automatic refetches of usage, for the `refetch` option: when the page
 * becomes visible or focused (`focus`), when the browser comes back online
 * (`online`), or every `intervalMs` on the client's scheduler (at least 1000).
 * Each joins the newest usage fetch, as `getUsage()` does; a failure shows in
 * the status. With `when` (any subscribable: your server's push), each value
 * is a nudge, as a tab's change message is: a fetch sent after it, a burst
 * sharing one; the source is subscribed for the client's life and again, with
 * backoff, when it ends. Throws `invalid_argument` for an unknown or invalid
 * field. `billing.getUsage()` refetches by hand without it.
 *
 * @example
 * ```ts
 * import { createClient, refetchOn } from 'unified-billing';
 *
 * const client = createClient({
 *   baseUrl,
 *   appKey: 'poster',
 *   refetch: refetchOn({ focus: true, online: true, intervalMs: 60_000 }),
 * });
 * // A server push: each `changed` event of an EventSource refetches.
 * const live = createClient({ baseUrl, appKey: 'poster', refetch: refetchOn({ when: fromEvent(source, 'changed') }) });
 * ```
 */
export function refetchOn(options: RefetchOptions): BillingFeature<'refetch'> {
  const checked = checkRefetch(options);
  // Nothing asked for: no effect at all.
  if (!checked) return { kind: 'refetch', install: () => ({}) };
  // An effect that emits nothing: armed as the client is created, disarmed on dispose.
  const armed: Effect = (actions, _state$, { usage, scheduler }) =>
    new Observable<never>(() => armRefetch(checked, { usage, scheduler, actions }));
  return { kind: 'refetch', install: () => ({ effects: [armed] }) };
}
