import type { BillingError, BillingModule } from '../index';
import { subtractAmount } from '../shared/subtract-amount';
import { boundElement, loadOnce, safely, type BoundElementClass } from './bound-element';

/**
 * The `<billing-gate>` class: a click on the button inside it consumes, then
 * the gate dispatches `billing-granted` (detail: the result, `isBlacklisted`
 * included, for the app to decide) or `billing-denied` (detail: the
 * `BillingError`). While the consume is pending the button is `aria-busy`
 * and clicks on it go nowhere, so a double click is one consume; once usage
 * is loaded, the button is `disabled` whenever `check()` refuses.
 */
export function gateClass(): BoundElementClass {
  return class BillingGate extends boundElement(watchGate) {
    constructor() {
      super();
      // Capture: the gate decides before the app's own handlers on the button see the click.
      this.addEventListener('click', (event) => this.consume(event), true);
    }

    private consume(event: Event): void {
      const billing = this.billing;
      const button = (event.target as Element).closest?.('button');
      if (!billing || !button || !this.contains(button)) return;
      if (this.hasAttribute('data-pending')) {
        event.preventDefault();
        event.stopImmediatePropagation();
        return;
      }
      busy(this, true);
      const send = (type: string, detail: unknown) => {
        busy(this, false);
        this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
      };
      billing.consume().then(
        (result) => send('billing-granted', result),
        (error: BillingError) => {
          const usage = error.code === 'insufficient_credits' ? safely(billing.getCachedUsage) : null;
          send('billing-denied', {
            error,
            // The refusal refreshed the balance before the consume settled: the gap is current.
            creditsNeeded: usage ? Math.max(0, subtractAmount(usage.creditsPerUse, usage.creditsBalance)) : null,
          });
        },
      );
    }
  };
}

/** Marks the gate's buttons busy (`aria-busy`, `aria-disabled`) or not, then applies `check()`. */
function busy(gate: HTMLElement & { billing: BillingModule | null }, pending: boolean): void {
  gate.toggleAttribute('data-pending', pending);
  gate
    .querySelectorAll('button')
    .forEach((button) =>
      ['aria-busy', 'aria-disabled'].forEach((name) =>
        pending ? button.setAttribute(name, 'true') : button.removeAttribute(name),
      ),
    );
  if (gate.billing) sync(gate, gate.billing);
}

/** `disabled` follows `check()` once usage is loaded; before that nothing is refused. */
function sync(gate: HTMLElement, billing: BillingModule): void {
  const refused = safely(() => billing.getStatus().loaded && !billing.check().canProceed) === true;
  gate.querySelectorAll('button').forEach((button) => (button.disabled = refused));
}

function watchGate(gate: HTMLElement, billing: BillingModule): Array<() => void> {
  const update = () => sync(gate, billing);
  const subscriptions = [billing.status$.subscribe(update), billing.usage$.subscribe(update)];
  loadOnce(billing);
  return [() => subscriptions.forEach((subscription) => subscription.unsubscribe())];
}
