// docs/refetch-and-live.md "Fresh balances after a top-up: refetchOn()", type-checked.
import { createClient, refetchOn } from 'unified-billing';

declare function getToken(): Promise<string>;

export const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
  refetch: refetchOn({ focus: true, online: true, intervalMs: 60_000 }),
});
