import { Observable } from 'rxjs';
import { invalid } from '../../shared/errors';
import type { BillingEvent } from '../../shared/billing-event';
import type { BillingFeature } from '../feature';
import { createEventHub } from './event-hub';
import { eventState, type AddEvent } from './event-of';

/**
 * Options of `billingEvents()`.
 *
 * @example
 * ```ts
 * const options: BillingEventsOptions = { onEvent: (event) => console.debug(event.type) };
 * ```
 */
export interface BillingEventsOptions {
  /** Hears every {@link BillingEvent}; a throwing listener is reported once and never breaks billing. */
  readonly onEvent?: (event: BillingEvent) => void;
}

/**
 * Events for logs and telemetry, for the `events` option: `billing.events$`
 * emits every {@link BillingEvent} from subscription on, and `onEvent` hears
 * each one. Without this feature `events$` never emits (and says so once in
 * development), and the event code is in no bundle.
 *
 * @example
 * ```ts
 * import { billingEvents, createClient } from 'unified-billing';
 *
 * const client = createClient({
 *   baseUrl,
 *   appKey: 'poster',
 *   events: billingEvents({ onEvent: (event) => telemetry.track(event.type) }),
 * });
 * client.billing.events$.subscribe((event) => console.debug('[billing]', event.type));
 * ```
 */
export function billingEvents(options: BillingEventsOptions = {}): BillingFeature<'events'> {
  const onEvent = options?.onEvent;
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    invalid(__DEV__ ? 'billingEvents() onEvent must be a function' : 'invalid billingEvents() onEvent', onEvent);
  }
  return {
    kind: 'events',
    install({ scheduler, wallNow }) {
      const hub = createEventHub(onEvent);
      // Events are built only while someone listens; the state that numbers them is kept always.
      const add: AddEvent = (type, facts) => {
        if (hub.active()) hub.emit({ type, at: scheduler.now(), wallTime: wallNow(), ...facts } as BillingEvent);
      };
      return {
        events$: hub.events$,
        // The store's two hooks that tell it facts: `observe` and `onRetry`.
        ...eventState(add),
        onRecovered: (recovered) => add('consume:recovered', recovered),
        // An effect that emits nothing: cut on dispose(), after the pending calls settled, it ends events$.
        effects: [() => new Observable<never>(() => () => hub.complete())],
      };
    },
  };
}
