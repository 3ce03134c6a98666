'use client';
// Recipe: Next.js App Router, the client half (see nextjs.md). A Client
// Component module: it renders on the server once per request (with the
// bootstrap, so the quota is in the HTML) and runs in the browser, where it
// keeps one client per browser. Written with createElement so the type check
// compiles it without JSX settings.
import { createElement as h, useEffect } from 'react';
import { createClient, type BillingSnapshot, type Client } from '../../lib';
import { useBillingCheck, useBillingStatus, useUsage } from '../../lib/react';

// Not imported from nextjs-server.ts: a Client Component must not import the server's module.
const BILLING_URL = 'https://api.example.com';

interface Session {
  readonly userId: string;
  readonly token: string;
  /** billingSnapshotFor(token) on the server, or `null`. */
  readonly snapshot: BillingSnapshot | null;
}

function create({ userId, token, snapshot }: Session): Client {
  return createClient({
    baseUrl: BILLING_URL,
    appKey: 'poster',
    // One scope per user: tabs and storage never mix two users' free periods.
    scope: `poster:${userId}`,
    headers: { Authorization: `Bearer ${token}` },
    bootstrap: snapshot, // sends nothing: the page starts from the server's answer
  });
}

// One client per browser, for the user signed in. Never at module level on the
// server: that module is shared by every request, so every user.
let browserClient: { userId: string; client: Client } | null = null;

function clientFor(session: Session): Client {
  if (typeof window === 'undefined') return create(session);
  if (browserClient?.userId !== session.userId) browserClient = { userId: session.userId, client: create(session) };
  return browserClient.client;
}

/** The client for the signed-in user; another user gets a new one and the old one is disposed. */
export function useBillingClient(session: Session): Client {
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
export function ExportButton({ session }: { session: Session }) {
  const { billing } = useBillingClient(session);
  // With a snapshot, the server and the first browser render both show the quota: no "Loading…" flash.
  const { loaded, pending, error } = useBillingStatus(billing);
  const { canProceed } = useBillingCheck(billing);
  const usage = useUsage(billing);
  useEffect(() => {
    // Without a snapshot (the server could not fetch), the browser fetches once mounted.
    if (!billing.getStatus().loaded) void billing.getUsage().catch(() => undefined);
  }, [billing]);
  if (!loaded) return h('button', { disabled: true }, error ? 'Could not load your quota' : 'Loading…');
  return h(
    'button',
    { disabled: !canProceed || pending > 0, onClick: () => void billing.consume().catch(() => undefined) },
    canProceed ? `Export (${usage?.freeRemaining ?? 0} free left)` : 'Top up to export',
  );
}
