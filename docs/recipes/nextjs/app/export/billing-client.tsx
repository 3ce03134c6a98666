// app/export/billing-client.tsx: a Client Component module. It renders on the server
// once per request (with the snapshot, so the quota is in the HTML) and runs in the
// browser, where it keeps one client per browser.
'use client';
import { useEffect } from 'react';
import { createClient, type BillingSnapshot, type Client } from 'unified-billing';
import { useBillingCheck, useBillingStatus, useUsage } from 'unified-billing/react';
import { APP_KEY, BILLING_URL } from './billing-config';

export interface BillingSession {
  readonly userId: string;
  readonly token: string;
  /** billingSnapshotFor(token) on the server, or `null`. */
  readonly snapshot: BillingSnapshot | null;
}

function create({ userId, token, snapshot }: BillingSession): Client {
  return createClient({
    baseUrl: BILLING_URL,
    appKey: APP_KEY,
    // One scope per user: tabs and storage never mix two users' free periods.
    scope: `${APP_KEY}:${userId}`,
    headers: { Authorization: `Bearer ${token}` },
    bootstrap: snapshot, // sends nothing: the page starts from the server's answer
  });
}

// One client per browser, for the user signed in. Never at module level on the
// server: that module is shared by every request, so every user.
let browserClient: { userId: string; client: Client } | null = null;

function clientFor(session: BillingSession): Client {
  if (typeof window === 'undefined') return create(session);
  if (browserClient?.userId !== session.userId) browserClient = { userId: session.userId, client: create(session) };
  return browserClient.client;
}

/** The client for the signed-in user; another user gets a new one and the old one is disposed. */
export function useBillingClient(session: BillingSession): Client {
  const client = clientFor(session);
  useEffect(
    // On a switch of user, once the page shows the new client. Not on Strict Mode's
    // rehearsal of an unmount: the client is still the browser's then.
    () => () => {
      if (browserClient?.client !== client) client.billing.dispose();
    },
    [client],
  );
  return client;
}

/** For sign-out: the browser's client goes, and the next session starts a new one. */
export function disposeBillingClient(): void {
  browserClient?.client.billing.dispose();
  browserClient = null;
}

/** `<ExportButton session={...} />`, rendered by the Server Component page. */
export function ExportButton({ session }: { session: BillingSession }) {
  const { billing } = useBillingClient(session);
  // With a snapshot, the server and the first browser render both show the quota: no "Loading…" flash.
  const { loaded, pending, error } = useBillingStatus(billing);
  const { canProceed } = useBillingCheck(billing);
  const usage = useUsage(billing);
  useEffect(() => {
    // Without a snapshot (the server could not fetch), the browser fetches once mounted.
    if (!billing.getStatus().loaded) void billing.getUsage().catch(() => undefined);
  }, [billing]);
  if (!loaded) return <button disabled>{error ? 'Could not load your quota' : 'Loading…'}</button>;
  return (
    <button disabled={!canProceed || pending > 0} onClick={() => void billing.consume().catch(() => undefined)}>
      {canProceed ? `Export (${usage?.freeRemaining ?? 0} free left)` : 'Top up to export'}
    </button>
  );
}
