import { Observable } from 'rxjs';
import type { BillingEvent } from '../shared/billing-event';

// Declared here, so that an app compiling the sources without Node's types still compiles this.
declare const process: { readonly env: { readonly NODE_ENV?: string } } | undefined;

// Development only: a bundler that sets NODE_ENV drops the warning from production builds; the
// `typeof` keeps the package loading where there is no `process` (a CDN module, Deno).
const development = typeof process !== 'undefined' && process.env.NODE_ENV !== 'production';

/**
 * `billing.events$` of a client without the events feature: it never emits
 * and completes with `ended$` (on `dispose()`), and its first subscriber gets
 * one `console.warn` in development naming the option that turns it on, so a
 * missing feature is never a silent trap.
 */
export function eventsWithoutFeature(ended$: Observable<unknown>): Observable<BillingEvent> {
  let warned = false;
  return new Observable<BillingEvent>((subscriber) => {
    if (development && !warned) {
      warned = true;
      console.warn(
        'unified-billing: billing.events$ emits nothing without the events feature; ' +
          'install it with createClient({ ..., events: billingEvents() })',
      );
    }
    return ended$.subscribe({ complete: () => subscriber.complete() });
  });
}
