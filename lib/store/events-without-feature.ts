import { Observable } from 'rxjs';
import type { BillingEvent } from '../shared/billing-event';

/**
 * `billing.events$` of a client without the events feature: it never emits
 * and completes with `ended$` (on `dispose()`), and its first subscriber gets
 * one `console.warn` in development naming the option that turns it on, so a
 * missing feature is never a silent trap.
 */
export function eventsWithoutFeature(ended$: Observable<unknown>): Observable<BillingEvent> {
  let warned = false;
  return new Observable<BillingEvent>((subscriber) => {
    // The development layer's guard (shared/dev.ts): a production bundle drops the warning.
    if (__DEV__ && !warned) {
      warned = true;
      console.warn(
        'unified-billing: billing.events$ emits nothing without the events feature; ' +
          'install it with createClient({ ..., events: billingEvents() })',
      );
    }
    return ended$.subscribe({ complete: () => subscriber.complete() });
  });
}
