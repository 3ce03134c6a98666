import { useSyncExternalStore } from 'react';
import type { BillingCheckResult, BillingModule, BillingStatus, UsageInfo } from '../index';
import { billingStores, type ExternalStore } from './external-store';

function useStore<T>(store: ExternalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}

/**
 * The cached usage, `null` before the first fetch; re-renders only when a
 * shown field changes (its `freePeriodRemaining` is not kept current: use
 * {@link useFreePeriodRemaining} for a countdown). A client created with a
 * `bootstrap` renders its usage on the server and at hydration alike.
 *
 * @example
 * ```tsx
 * function Quota() {
 *   const usage = useUsage(client.billing);
 *   return usage === null ? <Spinner /> : <span>{usage.freeRemaining}/{usage.freeTotal} free</span>;
 * }
 * ```
 */
export function useUsage(billing: BillingModule): UsageInfo | null {
  return useStore(billingStores(billing).usage);
}

/**
 * The `check()` verdict, re-rendering only when it changes (a free period
 * starting or ending, a quota change that flips it).
 *
 * @example
 * ```tsx
 * function ExportButton() {
 *   const { canProceed } = useBillingCheck(client.billing);
 *   return <button disabled={!canProceed}>Export</button>;
 * }
 * ```
 */
export function useBillingCheck(billing: BillingModule): BillingCheckResult {
  return useStore(billingStores(billing).check);
}

/**
 * Whole seconds left in the free period, 0 when none: re-renders once a second during one.
 *
 * @example
 * ```tsx
 * function Countdown() {
 *   const seconds = useFreePeriodRemaining(client.billing);
 *   return seconds > 0 ? <small>Free for {seconds} s</small> : null;
 * }
 * ```
 */
export function useFreePeriodRemaining(billing: BillingModule): number {
  return useStore(billingStores(billing).freePeriodRemaining);
}

/**
 * The client's {@link BillingStatus}: render "loading" (not a refusal) while
 * `loaded` is false. Re-renders only when the status changes. The server
 * snapshot is the status the `bootstrap` gave (`loaded: true`) for a client
 * created with one, else the initial status (`loaded: false`), so a
 * server-rendered page and its hydration show "loading" too.
 *
 * @example
 * ```tsx
 * function ExportButton() {
 *   const { loaded, error } = useBillingStatus(client.billing);
 *   const { canProceed } = useBillingCheck(client.billing);
 *   if (!loaded) return <button disabled>{error ? 'Could not load your quota' : 'Loading…'}</button>;
 *   return <button disabled={!canProceed}>Export</button>;
 * }
 * ```
 */
export function useBillingStatus(billing: BillingModule): BillingStatus {
  return useStore(billingStores(billing).status);
}
