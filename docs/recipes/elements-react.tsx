// Recipe: the billing elements in React 19, which sets a custom element's
// properties (`billing`) and listens to its events (`onbilling-granted`).
// `unified-billing/element/react` types both tags in JSX (types only: its
// module is empty); import it once, in any file of the app.
import { createClient } from 'unified-billing';
import { defineBillingElements } from 'unified-billing/element';
import 'unified-billing/element/react';

declare function runExport(): Promise<void>;

// Before the first render: React sets `billing` as a property only on a defined element.
defineBillingElements();
export const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

export function ExportBar() {
  return (
    <div>
      <billing-meter billing={client.billing} unit="export">
        <a slot="top-up" href="/credits">
          Buy credits
        </a>
      </billing-meter>
      <billing-gate
        billing={client.billing}
        onbilling-granted={(event) => void (event.detail.isBlacklisted || runExport())}
        onbilling-denied={(event) => console.warn(event.detail.error.code)}
      >
        <button type="button">Export</button>
      </billing-gate>
    </div>
  );
}
