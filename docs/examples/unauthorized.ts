// docs/backend-contract.md "Token refresh on 401: onUnauthorized", type-checked; the app's auth is declared.
import { createClient } from 'unified-billing';

declare const auth: { getToken(): Promise<string>; refreshToken(): Promise<void> };

export const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  // A function: resolved again before every attempt, so the retry sends the new token.
  headers: async () => ({ Authorization: `Bearer ${await auth.getToken()}` }),
  onUnauthorized: () => auth.refreshToken(), // awaited once per 401 burst
});
