// README "Quick start", type-checked. Only the import path differs (the
// sources instead of the package), the app functions it calls are declared,
// and the top-level await sits in a function (the type check compiles CommonJS).
import { createClient, isBillingError } from '../../lib';
import type { UsageInfo } from '../../lib';

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
client.billing.usage$.subscribe((usage) => render(usage));
export async function start() {
  await client.billing.getUsage();
}

export async function onExport(docId: string) {
  if (!client.billing.check().canProceed) return showTopUp();
  try {
    const result = await client.billing.consume({ externalId: `export-${docId}` });
    if (result.isBlacklisted) warn('Your account is restricted');
    await runExport(docId);
  } catch (error) {
    if (isBillingError(error, 'insufficient_credits')) showTopUp();
    else throw error;
  }
}
