// Recipe: Solid. `from()` turns `usage$` and `freePeriodRemaining$` into
// signals. It subscribes at once and unsubscribes with `onCleanup` when its
// owner (a component, or a `createRoot`) is disposed, so call it inside one.
// In a component (JSX; this file has no JSX settings, so it is a comment):
//
//   function QuotaBar(props: { billing: BillingModule }) {
//     const { usage, seconds, verdict } = createBilling(props.billing);
//     return (
//       <>
//         <Show when={usage()} fallback={<p>Loading your quota…</p>}>
//           {(u) => <p>{u().freeRemaining} / {u().freeTotal} free · {u().creditsBalance} credits</p>}
//         </Show>
//         <Show when={seconds() > 0}><small>Free again for {seconds()} s</small></Show>
//         <button disabled={usage() === null || !verdict().canProceed} onClick={onExport}>Export</button>
//       </>
//     );
//   }
import { createMemo, createRoot, createEffect, from, type Accessor } from 'solid-js';
import { createClient, type BillingCheckResult, type BillingModule, type UsageInfo } from 'unified-billing';

// One client per signed-in user; `client.billing.dispose()` at sign-out.
export const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

/**
 * The quota (`null` until the first `getUsage()` answers: show a loading
 * state), the countdown, and `check()`'s verdict, re-read when either changes.
 */
export function createBilling(billing: BillingModule): {
  usage: Accessor<UsageInfo | null>;
  seconds: Accessor<number>;
  verdict: Accessor<BillingCheckResult>;
} {
  const usage = from<UsageInfo | null>(billing.usage$, billing.getCachedUsage());
  const seconds = from(billing.freePeriodRemaining$, 0);
  const verdict = createMemo(() => {
    usage();
    seconds();
    return billing.check();
  });
  if (usage() === null) billing.getUsage().catch(() => undefined);
  return { usage, seconds, verdict };
}

/**
 * Outside components: a root of its own, and the function that disposes it
 * (which unsubscribes both `from()` signals).
 */
export function watchQuota(billing: BillingModule, render: (text: string) => void): () => void {
  return createRoot((dispose) => {
    const { usage, seconds } = createBilling(billing);
    createEffect(() => {
      const current = usage();
      const free = seconds() > 0 ? ` · free for ${seconds()} s` : '';
      render(current === null ? 'Loading…' : `${current.freeRemaining}/${current.freeTotal} free${free}`);
    });
    return dispose;
  });
}
