import { createElement as h, useEffect, useState } from 'react';
import { createClient, type BillingSnapshot } from '../../lib';
import { useBillingStatus, useUsage } from '../../lib/react';

/** What the server hands the page: where the billing API is, the user's token, and the snapshot (or none). */
export interface AppProps {
  readonly baseUrl: string;
  readonly token: string;
  readonly bootstrap: BillingSnapshot | null;
}

// The README's and the Next.js recipe's client component: one client per mounted page,
// created with the server's snapshot, disposed on unmount.
export function App({ baseUrl, token, bootstrap }: AppProps) {
  const [client] = useState(() =>
    createClient({ baseUrl, appKey: 'ssr', headers: { Authorization: `Bearer ${token}` }, bootstrap }),
  );
  useEffect(() => () => client.billing.dispose(), [client]);
  const usage = useUsage(client.billing);
  const { loaded } = useBillingStatus(client.billing);
  const text =
    loaded && usage ? `${usage.freeRemaining}/${usage.freeTotal} free, ${usage.creditsBalance} credits` : 'Loading…';
  return h('p', { id: 'quota' }, text);
}
