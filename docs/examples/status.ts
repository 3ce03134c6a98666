// docs/billing-rules.md "Status: loading, ready, failed", type-checked; the import paths
// point at the sources and the page's button is declared.
import { merge } from 'rxjs';
import { createClient, type BillingStatus } from 'unified-billing';
import { useBillingCheck, useBillingStatus } from 'unified-billing/react';

declare const button: HTMLButtonElement;

const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

function exportLabel(status: BillingStatus): string {
  if (!status.loaded) return status.error ? 'Could not load your quota: retry' : 'Loading…'; // never "Top up"
  if (status.pending > 0) return 'Exporting…';
  return client.billing.check().canProceed ? 'Export' : 'Top up to export';
}

// The label depends on the status and on the quota: render on either.
merge(client.billing.status$, client.billing.usage$).subscribe(() => {
  button.textContent = exportLabel(client.billing.getStatus());
});
client.billing.getUsage().catch(() => undefined); // a failure shows in status.error

export function useExportLabel(): string {
  const { loaded, error } = useBillingStatus(client.billing);
  const { canProceed } = useBillingCheck(client.billing);
  if (!loaded) return error ? 'Could not load your quota' : 'Loading…';
  return canProceed ? 'Export' : 'Top up to export';
}
