// Recipe: an Angular standalone component showing the quota with the async
// pipe on `usage$`, and an export button that consumes first. The async pipe
// subscribes and unsubscribes with the component; nothing to clean up.
import { AsyncPipe } from '@angular/common';
import { Component, Injectable, inject, type OnDestroy } from '@angular/core';
import { createClient, isBillingError, reloadSafe, tabSync, type Client } from 'unified-billing';

/** One billing client for the app, disposed with the root injector. */
@Injectable({ providedIn: 'root' })
export class BillingService implements OnDestroy {
  readonly client: Client = createClient({
    baseUrl: 'https://api.example.com',
    appKey: 'poster',
    headers: () => ({ Authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}` }),
    storage: reloadSafe(sessionStorage),
    sync: tabSync(),
  });

  ngOnDestroy(): void {
    this.client.billing.dispose();
  }
}

@Component({
  selector: 'app-billing-quota',
  standalone: true,
  imports: [AsyncPipe],
  template: `
    @if (billing.usage$ | async; as usage) {
      <p>{{ usage.freeRemaining }} / {{ usage.freeTotal }} free · {{ usage.creditsBalance }} credits</p>
    } @else {
      <p>Loading your quota…</p>
    }
    @if (billing.freePeriodRemaining$ | async; as seconds) {
      <small>Free again for {{ seconds }} s</small>
    }
    <button type="button" (click)="export()">Export</button>
    <p role="alert">{{ message }}</p>
  `,
})
export class BillingQuotaComponent {
  readonly billing = inject(BillingService).client.billing;
  message = '';

  constructor() {
    void this.billing.getUsage().catch(() => (this.message = 'Could not load your quota'));
  }

  async export(): Promise<void> {
    try {
      // No externalId: the client makes a fresh one for this click (see docs/ids-and-retries.md).
      await this.billing.consume();
      this.message = 'Exporting…';
    } catch (error) {
      this.message = isBillingError(error, 'insufficient_credits') ? 'Top up to export' : 'Export failed, try again';
    }
  }
}
