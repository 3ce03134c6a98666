import { Subject } from 'rxjs';
import type { BillingEvent } from '../../shared/billing-event';

/**
 * The event hub of one client: `emit` delivers an event to `onEvent`, then to the subscribers of
 * `events$` (hot, no replay); `active()` says whether anyone listens (if not, the engine builds no
 * events); `complete()` ends delivery on `dispose()`. A throwing `onEvent` is reported once on
 * `console.error` (by the event's type and error code only) and never breaks billing; a throwing
 * `events$` subscriber goes to RxJS's unhandled-error path like any subscriber's, and the others
 * still get the event.
 */
export function createEventHub(onEvent?: (event: BillingEvent) => void) {
  const subject = new Subject<BillingEvent>();
  let reported = false;
  let done = false;

  return {
    events$: subject.asObservable(),
    active: () => !done && (onEvent !== undefined || subject.observed),
    emit(event: BillingEvent): void {
      if (done) return;
      // One object goes to every listener: frozen, so none can change it for the next.
      Object.freeze(event);
      try {
        onEvent?.(event);
      } catch (thrown) {
        const error = 'error' in event ? event.error : undefined;
        // The event's own error is named by its code only: logs leave the app.
        if (!reported) {
          console.error(
            `unified-billing: onEvent threw on "${event.type}"${error ? ` (${error.code})` : ''}; billing goes on, later throws are not reported`,
            thrown === error ? error?.code : thrown,
          );
        }
        reported = true;
      }
      subject.next(event);
    },
    complete() {
      done = true;
      subject.complete();
    },
  };
}
