import { invalid } from '../../shared/errors';
import type { BillingEvent } from '../../shared/billing-event';
import type { BillingFeature } from '../feature';
import { createEventHub } from './event-hub';
import { eventsOf } from './event-of';

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
    install({ scheduler }) {
      const hub = createEventHub(onEvent);
      return {
        events$: hub.events$,
        // Built only while someone listens.
        observe(action, before, after) {
          if (hub.active()) for (const event of eventsOf(action, before, after, scheduler.now())) hub.emit(event);
        },
        // Rare: built even when nobody listens (the hub then delivers it to no one).
        onRecovered: ({ externalId, outcome }) =>
          hub.emit({ type: 'consume:recovered', at: scheduler.now(), externalId, outcome }),
        // The transport numbers attempts (2 is the first retry); the event counts retries.
        onRetry: ({ attempt, delayMs, path }) =>
          hub.emit({ type: 'request:retry', at: scheduler.now(), attempt: attempt - 1, delayMs, path }),
        dispose: () => hub.complete(),
      };
    },
  };
}
