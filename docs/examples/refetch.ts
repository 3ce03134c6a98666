// README "Fresh balances after a top-up: refetch", type-checked.
import { createClient } from 'unified-billing';

declare function getToken(): Promise<string>;

export const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
  refetch: { onFocus: true, onOnline: true, intervalMs: 60_000 },
});
