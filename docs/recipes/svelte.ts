// Recipe: Svelte stores over the billing module. The component snippet that
// uses `usage$` directly as a store (`$usage`) is in svelte.md; this file is
// the TypeScript part, type-checked against `svelte/store`'s `Readable`.
//
// Why wrap at all, when Svelte's runtime accepts an RxJS Observable as a
// store? Two reasons. Svelte's `Readable` type says `subscribe` returns a
// function, while an Observable returns a `Subscription` (the runtime calls
// its `unsubscribe`), so TypeScript code that takes a `Readable` (`derived`,
// your own helpers) needs the wrapper. And a store should have a value at
// once: `usage$` emits nothing before the first fetch, so `$usage` would be
// `undefined`; the wrapper starts at `null`, the documented "not loaded yet".
import { derived, readable, type Readable } from 'svelte/store';
import type { Observable } from 'rxjs';
import { createClient, type BillingCheckResult, type UsageInfo } from 'unified-billing';

// One client for the app, in a module of its own (e.g. src/lib/billing.ts);
// `client.billing.dispose()` when the user signs out (see svelte.md).
export const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' });

// Svelte subscribes when the first component reads the store and calls the
// returned function after the last one is destroyed: nothing to clean up by hand.
function storeFrom<T>(source: Observable<T>, initial: T): Readable<T> {
  return readable(initial, (set) => {
    const subscription = source.subscribe(set);
    return () => subscription.unsubscribe();
  });
}

/** The quota, `null` until the first `getUsage()` answers. */
export const usage: Readable<UsageInfo | null> = storeFrom<UsageInfo | null>(
  client.billing.usage$,
  client.billing.getCachedUsage(),
);

/** Whole seconds left in the free period, 0 when none is active. */
export const seconds: Readable<number> = storeFrom(client.billing.freePeriodRemaining$, 0);

/** `check()`'s verdict, re-read whenever the quota or the countdown changes. */
export const verdict: Readable<BillingCheckResult> = derived([usage, seconds], () => client.billing.check());
