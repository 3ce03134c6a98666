import type { BillingConsumeResult, BillingError, BillingModule } from '../index';

/**
 * `<billing-meter>`: set `billing` (a client's `billing`) and it shows the
 * quota, the next use's cost and the free-period countdown. Its
 * `data-state` is `loading`, `ready`, `empty` (out of credits) or `error`.
 *
 * @example
 * ```ts
 * document.querySelector('billing-meter')!.billing = client.billing;
 * ```
 */
export interface BillingMeterElement extends HTMLElement {
  /** The billing module shown; `null` shows the skeleton. Replacing it (a user switch) leaves nothing subscribed to the old one. */
  billing: BillingModule | null;
}

/**
 * The events `<billing-gate>` dispatches (they bubble and cross shadow roots).
 *
 * @example
 * ```ts
 * const onGranted = (event: BillingGateEventMap['billing-granted']) => runExport(event.detail);
 * ```
 */
export interface BillingGateEventMap extends HTMLElementEventMap {
  /** The consume went through (or answered `isBlacklisted`: the app decides): run the operation now. */
  'billing-granted': CustomEvent<BillingConsumeResult>;
  /** The consume failed: the typed error, and for `insufficient_credits` what a top-up needs. */
  'billing-denied': CustomEvent<BillingDenial>;
}

/**
 * The detail of `billing-denied`.
 *
 * @example
 * ```ts
 * gate.addEventListener('billing-denied', ({ detail }) => {
 *   if (detail.error.code === 'insufficient_credits') offerTopUp(detail.creditsNeeded);
 * });
 * ```
 */
export interface BillingDenial {
  /** Why the consume failed (`insufficient_credits`, `network`, `disposed`, …). */
  readonly error: BillingError;
  /** For `insufficient_credits`: the credits missing for one use, from the balance the refusal refreshed; else `null`. */
  readonly creditsNeeded: number | null;
}

/**
 * `<billing-gate>`: wraps the app's button; a click consumes first and then
 * dispatches `billing-granted` or `billing-denied`.
 *
 * @example
 * ```ts
 * const gate = document.querySelector('billing-gate')!;
 * gate.billing = client.billing;
 * gate.addEventListener('billing-granted', () => runExport());
 * ```
 */
export interface BillingGateElement extends HTMLElement {
  /** The billing module that consumes; with `null` a click does nothing. */
  billing: BillingModule | null;
  /** Listens to the gate's events with their typed detail (and to any other event). */
  addEventListener<K extends keyof BillingGateEventMap>(
    type: K,
    listener: (this: BillingGateElement, event: BillingGateEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  /** Any other event, as on every element. */
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  /** Removes a listener added for one of the gate's events. */
  removeEventListener<K extends keyof BillingGateEventMap>(
    type: K,
    listener: (this: BillingGateElement, event: BillingGateEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  /** Removes any other listener, as on every element. */
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/**
 * Custom tag names for {@link defineBillingElements} (each must contain a hyphen).
 *
 * @example
 * ```ts
 * defineBillingElements({ meter: 'acme-meter', gate: 'acme-gate' });
 * ```
 */
export interface BillingElementNames {
  readonly meter?: string;
  readonly gate?: string;
}

declare global {
  interface HTMLElementTagNameMap {
    'billing-meter': BillingMeterElement;
    'billing-gate': BillingGateElement;
  }
}
