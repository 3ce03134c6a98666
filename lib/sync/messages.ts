import type { Quota } from '../core/state';

/** What tabs tell each other; `v` lets a future version ignore what it cannot read. */
export type SyncMessage =
  | { readonly v: 1; readonly kind: 'hello'; readonly from: string }
  | {
      readonly v: 1;
      readonly kind: 'state';
      readonly from: string;
      readonly quota: Quota | null;
      /**
       * The end of the sender's free period on the wall clock all tabs share (0 if none),
       * so a receiver that handles the message late subtracts the transit; `null` from
       * a sender of an older version, which sent `freePeriodMs` only.
       */
      readonly freePeriodEnd: number | null;
      /** Milliseconds left when sent, 0 if none: what tabs of older versions read. */
      readonly freePeriodMs: number;
      /**
       * Wall time at which the request behind the quota's free count went out (the
       * sender's own, or the `asOf` of the tab it came from); `null` from a sender
       * of an older version.
       */
      readonly asOf: number | null;
      /** The same for its balance, which may be older or newer than the free count; `null` as for `asOf`. */
      readonly balanceAsOf: number | null;
    }
  | { readonly v: 1; readonly kind: 'claim'; readonly from: string; readonly at: number }
  | { readonly v: 1; readonly kind: 'release'; readonly from: string }
  | { readonly v: 1; readonly kind: 'bye'; readonly from: string }
  | { readonly v: 1; readonly kind: 'ping'; readonly from: string; readonly nonce: string }
  | { readonly v: 1; readonly kind: 'pong'; readonly from: string; readonly to: string; readonly nonce: string };

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function isQuota(value: unknown): value is Quota {
  const quota = value as Record<string, unknown> | null;
  return (
    typeof quota === 'object' &&
    quota !== null &&
    typeof quota.isEnabled === 'boolean' &&
    isCount(quota.freeRemaining) &&
    isCount(quota.freeTotal) &&
    isCount(quota.creditsPerUse) &&
    isCount(quota.creditsBalance)
  );
}

/** The message, or `null` for anything malformed: another tab may run another version, or be hostile. */
export function parseMessage(data: unknown): SyncMessage | null {
  const message = data as Record<string, unknown> | null;
  if (typeof message !== 'object' || message === null || message.v !== 1) return null;
  if (typeof message.from !== 'string' || message.from === '') return null;
  const from = message.from;
  switch (message.kind) {
    case 'hello':
    case 'release':
    case 'bye':
      return { v: 1, kind: message.kind, from };
    case 'ping':
      return typeof message.nonce === 'string' ? { v: 1, kind: 'ping', from, nonce: message.nonce } : null;
    case 'pong': {
      const { to, nonce } = message;
      return typeof to === 'string' && typeof nonce === 'string' ? { v: 1, kind: 'pong', from, to, nonce } : null;
    }
    case 'claim':
      return isCount(message.at) ? { v: 1, kind: 'claim', from, at: message.at } : null;
    case 'state': {
      const quota = message.quota === null ? null : isQuota(message.quota) ? pickQuota(message.quota) : undefined;
      if (quota === undefined || !isCount(message.freePeriodMs)) return null;
      const { freePeriodEnd: end, asOf, balanceAsOf } = message;
      const optional = (value: unknown) => value === undefined || isCount(value);
      if (!optional(end) || !optional(asOf) || !optional(balanceAsOf)) return null;
      const freePeriodMs = message.freePeriodMs;
      return {
        v: 1,
        kind: 'state',
        from,
        quota,
        freePeriodEnd: (end as number | undefined) ?? null,
        freePeriodMs,
        asOf: (asOf as number | undefined) ?? null,
        balanceAsOf: (balanceAsOf as number | undefined) ?? (asOf as number | undefined) ?? null,
      };
    }
    default:
      return null;
  }
}

// Only the named fields travel on, whatever else the sender attached.
function pickQuota({ isEnabled, freeRemaining, freeTotal, creditsPerUse, creditsBalance }: Quota): Quota {
  return { isEnabled, freeRemaining, freeTotal, creditsPerUse, creditsBalance };
}
