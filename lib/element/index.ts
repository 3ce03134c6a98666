// `unified-billing/element`: <billing-meter> and <billing-gate> as standard custom
// elements, for any framework or none. Its own entry point, so an app that does
// not import it bundles none of it. Built on the main entry's public API only.
// Its types need no @types/react: JSX types for React are in `unified-billing/element/react`.
import { gateClass } from './gate';
import { meterClass } from './meter';
import type { BillingElementNames } from './types';

export type {
  BillingDenial,
  BillingElementNames,
  BillingGateElement,
  BillingGateEventMap,
  BillingMeterElement,
} from './types';

/**
 * Registers `<billing-meter>` and `<billing-gate>` (or the names given).
 * Calling it again, or for a name already defined, does nothing; where there
 * is no DOM (a server render, Node) it does nothing at all.
 *
 * @example
 * ```ts
 * defineBillingElements();
 * document.querySelector('billing-meter')!.billing = client.billing;
 * ```
 */
export function defineBillingElements({
  meter = 'billing-meter',
  gate = 'billing-gate',
}: BillingElementNames = {}): void {
  if (typeof HTMLElement === 'undefined' || typeof customElements === 'undefined') return;
  if (!customElements.get(meter)) customElements.define(meter, meterClass());
  if (!customElements.get(gate)) customElements.define(gate, gateClass());
}
