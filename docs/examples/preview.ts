// docs/billing-rules.md "What will this cost? billing.preview()", type-checked.
import { createClient } from 'unified-billing';

const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

export function exportLabel(): string {
  const { canProceed, reason, cost, freeAfter, balanceAfter } = client.billing.preview();
  const balance = client.billing.getCachedUsage()?.creditsBalance;
  if (cost === null) return 'Loading…';
  if (!canProceed) return `Export needs ${cost} credits (you have ${balance})`;
  if (reason === 'free_period') return 'Export (free for a few more seconds)';
  if (reason === 'free_count') return `Export (free, ${freeAfter} left after this one)`;
  return `This export costs ${cost} credits (${balance} → ${balanceAfter})`; // This export costs 10 credits (40 → 30)
}
