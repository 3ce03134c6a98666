// app/export/billing-server.ts: import it from Server Components only; it runs per
// request with the user's credentials.
import { createClient, type BillingSnapshot } from 'unified-billing';
import { APP_KEY, BILLING_URL } from './billing-config';

/**
 * The user's quota as a snapshot for the page: fetched on the server with the
 * user's own token, by a client made for this request and disposed after it
 * (a server never shares a client between users). `null` when the backend
 * cannot answer: the page then renders "Loading…" and the browser fetches.
 */
export async function billingSnapshotFor(token: string): Promise<BillingSnapshot | null> {
  const client = createClient({
    baseUrl: BILLING_URL,
    appKey: APP_KEY,
    headers: { Authorization: `Bearer ${token}` },
    timeoutMs: 2_000,
    retries: 0,
  });
  try {
    await client.billing.getUsage();
    return client.billing.snapshot(); // plain JSON, no header value: safe to hand to the page
  } catch {
    return null;
  } finally {
    client.billing.dispose();
  }
}
