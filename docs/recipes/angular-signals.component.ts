// Recipe: Angular signals. `toSignal` (from `@angular/core/rxjs-interop`)
// subscribes to `usage$` and `freePeriodRemaining$` in the component's
// injection context and unsubscribes when the component is destroyed; the
// async-pipe version of the same component is angular-usage.component.ts.
//
// The type check compiles with `moduleResolution: node`, which cannot see the
// `rxjs-interop` subpath export; tsconfig.json maps that one import to the
// file the package's export map names. An Angular app (resolution `bundler`)
// needs nothing of the kind.
import { Component, computed, inject, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { isBillingError } from 'unified-billing';
import { BillingService } from './angular-usage.component';

@Component({
  selector: 'app-billing-quota-signals',
  standalone: true,
  template: `
    @if (usage(); as usage) {
      <p>{{ usage.freeRemaining }} / {{ usage.freeTotal }} free · {{ usage.creditsBalance }} credits</p>
    } @else {
      <p>Loading your quota…</p>
    }
    @if (seconds() > 0) {
      <small>Free again for {{ seconds() }} s</small>
    }
    <button type="button" [disabled]="!canExport()" (click)="export()">Export</button>
    <p role="alert">{{ message() }}</p>
  `,
})
export class BillingQuotaSignalsComponent {
  private readonly billing = inject(BillingService).client.billing;
  // `null` until the first getUsage() answers: usage$ replays the cached quota
  // at once to a new subscriber, and emits nothing before the first fetch.
  readonly usage = toSignal(this.billing.usage$, { initialValue: null });
  readonly seconds = toSignal(this.billing.freePeriodRemaining$, { initialValue: 0 });
  // check() reads the client's cache, which changes only when one of the two signals does.
  readonly canExport = computed(() => {
    this.seconds();
    return this.usage() !== null && this.billing.check().canProceed;
  });
  readonly message = signal('');

  constructor() {
    if (this.usage() === null) {
      this.billing.getUsage().catch(() => this.message.set('Could not load your quota'));
    }
  }

  async export(): Promise<void> {
    try {
      // No externalId: the client makes a fresh one for this click.
      await this.billing.consume();
      this.message.set('Exporting…');
    } catch (error) {
      this.message.set(isBillingError(error, 'insufficient_credits') ? 'Top up to export' : 'Export failed, try again');
    }
  }
}
