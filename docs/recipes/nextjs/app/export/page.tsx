// app/export/page.tsx: a Server Component (no 'use client').
import { ExportButton } from './billing-client';
import { billingSnapshotFor } from './billing-server';
import { readSession } from './session';

// One user's quota: rendered for each request, never once at build time nor cached for others.
export const dynamic = 'force-dynamic';

export default async function ExportPage() {
  const session = await readSession();
  if (session === null) return <p>Sign in to export.</p>;
  const snapshot = await billingSnapshotFor(session.token);
  // Every prop of a Client Component is written into the page (its RSC payload): the token too.
  return <ExportButton session={{ userId: session.userId, token: session.token, snapshot }} />;
}
