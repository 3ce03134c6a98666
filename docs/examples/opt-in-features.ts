// The opt-in features of 0.2.0 as a user writes them (see CHANGELOG.md), type-checked.
import { createClient, reloadSafe, tabSync } from 'unified-billing';
import { useBillingCheck, useFreePeriodRemaining, useUsage } from 'unified-billing/react';

declare function resumeExport(externalId: string): void;
declare const userId: string;

// Reload-safe and tab-synced billing for one signed-in user.
export const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  storage: reloadSafe(sessionStorage),
  sync: tabSync(),
  scope: `poster:${userId}`,
});

// A consume cut by a reload was replayed with its own external_id: finish the job.
client.billing.recovered$.subscribe(({ externalId, outcome }) => {
  if (outcome.ok) resumeExport(externalId);
});

// React: each hook re-renders only when what it returns changes.
export function useBillingBar() {
  return {
    usage: useUsage(client.billing),
    verdict: useBillingCheck(client.billing),
    seconds: useFreePeriodRemaining(client.billing),
  };
}
