// Uses the elements wrongly: `ng build --configuration wrong` must fail on both
// lines of the template (scripts/check-frameworks.mjs finds them by their text).
import { CUSTOM_ELEMENTS_SCHEMA, Component } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import { BillingElementDirective } from './elements-angular.component';

@Component({
  selector: 'app-root',
  standalone: true,
  imports: [BillingElementDirective],
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <billing-meter [billing]="42" unit="export"></billing-meter>
    <billing-gate (billing-granted)="count($event)"><button type="button">Export</button></billing-gate>
  `,
})
class WrongComponent {
  count(uses: number): number {
    return uses;
  }
}

bootstrapApplication(WrongComponent).catch((error: unknown) => console.error(error));
