// Recipe: no framework. Clicks are piped into consumes with consumeWith, so a
// burst of clicks is one charge (the rest fall in the free period), and the
// quota and countdown are bound to plain elements.
import { fromEvent } from 'rxjs';
import { consumeWith, createClient, reloadSafe } from 'unified-billing';

declare function runExport(): Promise<void>;

export function mountBilling(root: HTMLElement): () => void {
  const client = createClient({
    baseUrl: 'https://api.example.com',
    appKey: 'poster',
    storage: reloadSafe(sessionStorage),
  });
  const button = root.querySelector<HTMLButtonElement>('button.export');
  const quota = root.querySelector<HTMLElement>('.quota');
  const countdown = root.querySelector<HTMLElement>('.countdown');
  if (button === null || quota === null || countdown === null) throw new Error('billing markup missing');

  const subscriptions = [
    client.billing.usage$.subscribe((usage) => {
      quota.textContent = `${usage.freeRemaining}/${usage.freeTotal} free · ${usage.creditsBalance} credits`;
      button.disabled = !client.billing.check().canProceed;
    }),
    client.billing.freePeriodRemaining$.subscribe((seconds) => {
      countdown.textContent = seconds > 0 ? `Free for ${seconds} s` : '';
    }),
    fromEvent(button, 'click')
      .pipe(consumeWith(client.billing))
      .subscribe((outcome) => {
        if (outcome.ok) void runExport();
        else quota.textContent = outcome.error.code === 'insufficient_credits' ? 'Top up to export' : 'Try again';
      }),
  ];
  void client.billing.getUsage().catch(() => (quota.textContent = 'Quota unavailable'));

  return () => {
    subscriptions.forEach((subscription) => subscription.unsubscribe());
    client.billing.dispose();
  };
}
