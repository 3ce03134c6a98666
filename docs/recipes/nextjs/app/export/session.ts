// app/export/session.ts
// PLACEHOLDER: replace readSession with your auth library's session on the server
// (Auth.js `auth()`, Clerk's `auth()`, a session cookie you verify with `cookies()`).
// Try-out value: every visitor is the reference backend's user `dev-token` ("Try it").
export interface Session {
  readonly userId: string;
  /** Sent to the billing API as `Authorization: Bearer <token>`; it reaches the browser (see nextjs.md). */
  readonly token: string;
}

export async function readSession(): Promise<Session | null> {
  return { userId: 'demo-user', token: 'dev-token' };
}
