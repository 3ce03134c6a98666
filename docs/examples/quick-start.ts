// README "Quick start", type-checked (the type check maps the package's names to
// the sources). The app functions it calls are declared,
// and the top-level await sits in a function (the type check compiles CommonJS).
import { createClient, isBillingError } from 'unified-billing';
import type { UsageInfo } from 'unified-billing';

declare function getToken(): Promise<string>;
declare function render(usage: UsageInfo): void;
declare function showTopUp(): void;
declare function warn(message: string): void;
declare function runExport(docId: string): Promise<void>;

const client = createClient({
  baseUrl: 'https://api.example.com',
  appKey: 'poster',
  headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
});
// usage$ emits nothing before the first fetch answers: show a spinner until it does.
client.billing.usage$.subscribe((usage) => render(usage));
export async function start() {
  await client.billing.getUsage();
}

export async function onExportClick(docId: string) {
  // Before the first fetch check() can only say 'insufficient': let the backend decide then.
  const { loaded } = client.billing.getStatus();
  if (loaded && !client.billing.check().canProceed) return showTopUp();
  try {
    // No externalId: the client makes a fresh one, so each click is one operation.
    const result = await client.billing.consume();
    if (result.isBlacklisted) warn('Your account is restricted');
    await runExport(docId);
  } catch (error) {
    if (isBillingError(error, 'insufficient_credits')) showTopUp();
    else throw error;
  }
}
