// docs/billing-rules.md "Before the first fetch: a loading state, not "refused"", type-checked.
import { createClient, type UsageInfo } from 'unified-billing';

declare const quota: HTMLElement;

const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

function quotaText(usage: UsageInfo | null): string {
  if (usage === null) return 'Loading your quota…'; // a spinner, not "Refused"
  const { canProceed } = client.billing.check();
  return canProceed ? `${usage.freeRemaining}/${usage.freeTotal} free` : 'Top up to export';
}

quota.textContent = quotaText(client.billing.getCachedUsage()); // null: loading
client.billing.usage$.subscribe((usage) => (quota.textContent = quotaText(usage)));
client.billing.getUsage().catch(() => (quota.textContent = 'Could not load your quota'));
