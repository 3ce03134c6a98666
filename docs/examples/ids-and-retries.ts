// docs/ids-and-retries.md "Ids and retries: one externalId per user action", type-checked.
import { createClient, isBillingError } from 'unified-billing';

declare function runExport(docId: string): Promise<void>;
declare function showRetryButton(retry: () => Promise<void>): void;

const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

export async function onExportClick(docId: string) {
  await exportOnce(docId, crypto.randomUUID()); // a new id per click
}

async function exportOnce(docId: string, externalId: string): Promise<void> {
  try {
    await client.billing.consume({ externalId });
    await runExport(docId);
  } catch (error) {
    if (isBillingError(error, 'network') || isBillingError(error, 'timeout')) {
      // No answer: the backend may have charged. Retry this action with its own id.
      showRetryButton(() => exportOnce(docId, externalId));
    } else throw error;
  }
}
