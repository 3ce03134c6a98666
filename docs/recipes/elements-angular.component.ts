// Recipe: the billing elements in an Angular standalone component, on the
// app's one client (`BillingService`, angular-usage.component.ts): the quota
// components and these elements show and charge the same quota.
// `CUSTOM_ELEMENTS_SCHEMA` lets the template use the two tags.
//
// What Angular's `strictTemplates` checks: `$event` of `(billing-granted)` and
// `(billing-denied)` is typed from the elements' own types, so a handler for the
// wrong event is an error. A DOM property is never checked, so `[billing]` is
// bound through `BillingElementDirective` below, whose input Angular does check.
// Still unchecked under the schema: other attributes and properties on the tags
// (`unit`), and a misspelt tag or event name.
import { CUSTOM_ELEMENTS_SCHEMA, Component, Directive, ElementRef, Input, inject, signal } from '@angular/core';
import type { BillingModule } from 'unified-billing';
import {
  defineBillingElements,
  type BillingGateElement,
  type BillingGateEventMap,
  type BillingMeterElement,
} from 'unified-billing/element';
import { BillingService } from './angular-usage.component';

defineBillingElements();

/** `[billing]` on either tag, type-checked: it sets the element's `billing` property. */
@Directive({ selector: 'billing-meter[billing], billing-gate[billing]', standalone: true })
export class BillingElementDirective {
  private readonly element = inject<ElementRef<BillingMeterElement | BillingGateElement>>(ElementRef).nativeElement;

  @Input({ required: true }) set billing(billing: BillingModule | null) {
    this.element.billing = billing;
  }
}

@Component({
  selector: 'app-export-bar',
  standalone: true,
  imports: [BillingElementDirective],
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <billing-meter [billing]="billing" unit="export"></billing-meter>
    <billing-gate [billing]="billing" (billing-granted)="granted($event)" (billing-denied)="denied($event)">
      <button type="button">Export</button>
    </billing-gate>
    <p role="alert">{{ message() }}</p>
  `,
})
export class ExportBarComponent {
  // The app's client: the service disposes it, not this component.
  readonly billing = inject(BillingService).client.billing;
  readonly message = signal('');

  granted({ detail }: BillingGateEventMap['billing-granted']): void {
    this.message.set(detail.isBlacklisted ? 'Your account is restricted' : 'Exporting…');
  }

  denied({ detail }: BillingGateEventMap['billing-denied']): void {
    this.message.set(detail.error.code === 'insufficient_credits' ? 'Top up to export' : 'Export failed, try again');
  }
}
