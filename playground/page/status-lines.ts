// The words the page puts on status$, events$ and preview(): pure, so the browser
// tests and a reader see the same sentences the page draws.
import type { BillingEvent, BillingModule } from '../../lib';

/** `billing.getStatus()`'s shape, read off the module (not exported by name from the entry). */
export type PageStatus = ReturnType<BillingModule['getStatus']>;
/** `billing.preview()`'s shape. */
export type PagePreview = ReturnType<BillingModule['preview']>;
/** One `billing.events$` value. */
export type PageEvent = BillingEvent;

/**
 * The status line: "Loading…" until the first answer, then "Ready (fetched 2 s ago)",
 * with the consumes awaiting an answer and the last error after it.
 *
 * @example
 * ```ts
 * describeStatus(billing.getStatus(), performance.now()); // 'Ready (fetched 0 s ago) · 1 consume pending'
 * ```
 */
export function describeStatus(status: PageStatus, now: number): string {
  const { loaded, loading, fetchedAt, pending, error } = status;
  const parts: string[] = [];
  if (!loaded) {
    parts.push(loading ? 'Loading…' : 'Not loaded');
  } else {
    // fetchedAt is on the client's scheduler: the default one reads performance.now(), as `now` does.
    const age = fetchedAt === null ? 0 : Math.max(0, Math.floor((now - fetchedAt) / 1000));
    parts.push(`Ready (fetched ${age} s ago)${loading ? ', refreshing…' : ''}`);
  }
  if (pending > 0) parts.push(`${pending} consume${pending === 1 ? '' : 's'} pending`);
  if (error !== null) {
    const status = error.status === undefined ? '' : ` ${error.status}`;
    parts.push(`Error (${error.code}${status}): ${error.message}`);
  }
  return parts.join(' · ');
}

/**
 * The cost line of the next export, from `billing.preview()`.
 *
 * @example
 * ```ts
 * describePreview({ canProceed: true, reason: 'credits', cost: 10, freeAfter: 0, balanceAfter: 30 });
 * // 'This export costs 10 credits (40 → 30)'
 * ```
 */
export function describePreview(preview: PagePreview): string {
  const { reason, cost, freeAfter, balanceAfter } = preview;
  if (reason === 'free_period') return 'This export is free (free period)';
  // Before the first answer nothing is known: not a refusal.
  if (cost === null || freeAfter === null || balanceAfter === null) return 'Loading the price…';
  switch (reason) {
    case 'free_count':
      return `This export uses 1 free use (${freeAfter + 1} → ${freeAfter})`;
    case 'credits':
      return `This export costs ${cost} credits (${balanceAfter + cost} → ${balanceAfter})`;
    case 'insufficient':
      return `Not enough credits: needs ${cost}, has ${balanceAfter}`;
  }
}

/**
 * One line of the events log: type, `at` (scheduler ms), then what the event carries.
 *
 * @example
 * ```ts
 * describeEvent({ type: 'consume:charged', at: 1234.5, externalId: 'op-1', isCredit: true });
 * // 'consume:charged at 1235 ms · op-1 · credits'
 * ```
 */
export function describeEvent(event: PageEvent): string {
  const parts = [`${event.type} at ${Math.round(event.at)} ms`];
  if ('externalId' in event) parts.push(event.externalId ?? 'no id');
  if (event.type === 'consume:charged') parts.push(event.isCredit ? 'credits' : 'free use');
  if (event.type === 'request:retry') parts.push(`${event.path} retry ${event.attempt} after ${event.delayMs} ms`);
  if ('error' in event) parts.push(event.error.code);
  return parts.join(' · ');
}
