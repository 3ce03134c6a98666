// docs/ssr.md "Server-rendered pages: snapshot() and bootstrap", type-checked.
import { createClient, type HeadersOption } from 'unified-billing';

declare const baseUrl: string;
declare const token: string;
declare const headers: HeadersOption;

export async function page() {
  // On the server, per request: this user's client, disposed after.
  const server = createClient({ baseUrl, appKey: 'poster', headers: { Authorization: `Bearer ${token}` } });
  await server.billing.getUsage();
  const snapshot = server.billing.snapshot(); // plain JSON, never a header value
  server.billing.dispose();

  // In the page (and in its server render): knows the quota at once, sends nothing for it.
  const client = createClient({ baseUrl, appKey: 'poster', headers, bootstrap: snapshot });
  return client.billing.getCachedUsage(); // the snapshot's usage; getStatus().loaded is true
}
