// The app around the recipes (docs/recipes/angular-*.component.ts and
// elements-angular.component.ts, copied beside this file by
// scripts/check-frameworks.mjs): the three components on one page, so the
// elements and the quota components must share BillingService's one client.
import { Component } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import { BillingQuotaSignalsComponent } from './angular-signals.component';
import { BillingQuotaComponent } from './angular-usage.component';
import { ExportBarComponent } from './elements-angular.component';

@Component({
  selector: 'app-root',
  standalone: true,
  imports: [BillingQuotaComponent, BillingQuotaSignalsComponent, ExportBarComponent],
  template: `
    <section id="async"><app-billing-quota /></section>
    <section id="signals"><app-billing-quota-signals /></section>
    <section id="elements"><app-export-bar /></section>
  `,
})
class AppComponent {}

bootstrapApplication(AppComponent).catch((error: unknown) => console.error(error));
