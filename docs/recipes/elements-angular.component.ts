// Recipe: the billing elements in an Angular standalone component.
// `CUSTOM_ELEMENTS_SCHEMA` lets the template use the two tags; `[billing]`
// binds the DOM property and `(billing-granted)` listens to the event.
import { CUSTOM_ELEMENTS_SCHEMA, Component, type OnDestroy } from '@angular/core';
import { createClient, type BillingConsumeResult } from 'unified-billing';
import { defineBillingElements, type BillingDenial } from 'unified-billing/element';

defineBillingElements();

@Component({
  selector: 'app-export-bar',
  standalone: true,
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <billing-meter [billing]="billing" unit="export"></billing-meter>
    <billing-gate [billing]="billing" (billing-granted)="granted($event)" (billing-denied)="denied($event)">
      <button type="button">Export</button>
    </billing-gate>
    <p role="alert">{{ message }}</p>
  `,
})
export class ExportBarComponent implements OnDestroy {
  readonly billing = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' }).billing;
  message = '';

  granted(event: Event): void {
    const { detail } = event as CustomEvent<BillingConsumeResult>;
    this.message = detail.isBlacklisted ? 'Your account is restricted' : 'Exporting…';
  }

  denied(event: Event): void {
    const { detail } = event as CustomEvent<BillingDenial>;
    this.message = detail.error.code === 'insufficient_credits' ? 'Top up to export' : 'Export failed, try again';
  }

  ngOnDestroy(): void {
    this.billing.dispose();
  }
}
