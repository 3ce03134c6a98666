// Recipe: <billing-meter> and <billing-gate> on a page with no framework. The markup:
//
//   <billing-meter unit="export"><a slot="top-up" href="/credits">Buy credits</a></billing-meter>
//   <billing-gate><button type="button">Export</button></billing-gate>
//
// The meter fetches the quota when it connects; the gate consumes on each click
// (a double click is one charge) and tells the app what happened.
import { createClient } from 'unified-billing';
import { defineBillingElements } from 'unified-billing/element';

declare function runExport(): Promise<void>;
declare function offerTopUp(credits: number | null): void;

export const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });
defineBillingElements();

const meter = document.querySelector('billing-meter');
const gate = document.querySelector('billing-gate');
if (meter && gate) {
  meter.billing = gate.billing = client.billing;
  gate.addEventListener('billing-granted', ({ detail }) => {
    if (!detail.isBlacklisted) void runExport();
  });
  gate.addEventListener('billing-denied', ({ detail }) => {
    if (detail.error.code === 'insufficient_credits') offerTopUp(detail.creditsNeeded);
  });
}
// A user switch: hand both elements the new client; the old one's subscriptions end.
export function switchUser(next: typeof client): void {
  if (meter && gate) meter.billing = gate.billing = next.billing;
}
