// docs/clients-and-users.md "Node: scripts, tests and servers", type-checked; the top-level
// awaits sit in a function (the type check compiles CommonJS).
import { createClient } from 'unified-billing';

declare const baseUrl: string;
declare const token: string;

export async function script() {
  // A script: dispose in finally, so an error does not leave a request running.
  const client = createClient({ baseUrl, appKey: 'poster', headers: { Authorization: `Bearer ${token}` } });
  try {
    await client.billing.consume();
  } finally {
    client.billing.dispose();
  }
}
