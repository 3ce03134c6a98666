import type { QuotaFields } from '../../shared/types';
import { invalidQuotaKey, pickQuota } from '../../shared/quota-keys';
import { isExternalId } from '../../shared/wire';

/**
 * What tabs tell each other; nothing here is ranked. `period`: the free period
 * `id` has `left` ms to run on its owner's monotonic clock, measured when sent
 * at the owner's wall time `at` (a hint only, to take off a late delivery);
 * `ended`: that period ended on its owner's clock; `ask`: a tab that joins (or
 * finds a period lock held) asks the owners for their periods; `changed`: the
 * backend's quota changed, so each tab fetches its own, unless it already shows
 * the quota `q` its sender now shows (a hint, never adopted); `sending`: the
 * page `page` (its client's id) is sending the consume `id`, under the consume
 * lock; `sent`: the answer to `id` was applied (or its caller has its outcome).
 * A `sending` still open when its page's lock is free names a POST whose page
 * died before the answer: the next holder sends it again.
 */
export type SyncMessage =
  | { readonly kind: 'period'; readonly id: string; readonly left: number; readonly at: number }
  | { readonly kind: 'ended'; readonly id: string }
  | { readonly kind: 'ask' }
  | { readonly kind: 'changed'; readonly q?: QuotaFields }
  | { readonly kind: 'sending'; readonly id: string; readonly page: string }
  | { readonly kind: 'sent'; readonly id: string };

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
// A period id is `<page id>.<n>`: short, and never a lock-name separator.
const periodId = (v: unknown): v is string => typeof v === 'string' && v.length <= 100 && !v.includes(':');
// A page id names a lock (`…:page:<page id>`): as short, and as free of separators, as a period id.
const pageId = (v: unknown): v is string => periodId(v) && v !== '';

// A malformed hint is no hint: the message then fetches, as one without it does. Checked as every quota is.
const quotaFields = (v: unknown): v is QuotaFields => invalidQuotaKey(v) === undefined;

/** Another page of the origin may send anything: only well-formed messages count. */
export function parseMessage(data: unknown): SyncMessage | null {
  // A primitive has no `kind`, so it is no message, as null is.
  const m = (data ?? {}) as Partial<Record<'kind' | 'id' | 'left' | 'at' | 'page' | 'q', unknown>>;
  if (m.kind === 'changed') return quotaFields(m.q) ? { kind: 'changed', q: pickQuota(m.q) } : { kind: 'changed' };
  if (m.kind === 'ask') return { kind: 'ask' };
  if (m.kind === 'ended' && periodId(m.id)) return { kind: 'ended', id: m.id };
  if (m.kind === 'period' && periodId(m.id) && finite(m.left) && finite(m.at)) {
    return { kind: 'period', id: m.id, left: m.left, at: m.at };
  }
  if (m.kind === 'sending' && isExternalId(m.id) && pageId(m.page)) return { kind: 'sending', id: m.id, page: m.page };
  if (m.kind === 'sent' && isExternalId(m.id)) return { kind: 'sent', id: m.id };
  return null;
}
