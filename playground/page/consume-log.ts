import { isBillingError, type BillingConsumeResult } from '../../lib';
import type { WireEntry } from './wire-log';

/** What one click on Export came to, as the log shows it (`pushed`: a change told by the backend). */
export type ConsumeKind =
  'free_count' | 'free_period' | 'credits' | 'blacklisted' | 'insufficient' | 'error' | 'pushed';

export interface ConsumeEntry {
  readonly kind: ConsumeKind;
  readonly title: string;
  readonly detail: string;
}

/**
 * Names a settled consume. A free-period consume and a free-quota charge give
 * the same result shape; what tells them apart is whether a POST was sent.
 */
export function describeResult(result: BillingConsumeResult, wire: readonly WireEntry[]): ConsumeEntry {
  if (result.isBlacklisted) {
    return { kind: 'blacklisted', title: 'Blacklisted (20102)', detail: 'nothing charged; warn the user or block' };
  }
  if (result.isCredit) {
    return { kind: 'credits', title: 'Credits deducted', detail: `free uses left: ${result.freeRemaining}` };
  }
  if (!wire.some((entry) => entry.method === 'POST')) {
    return { kind: 'free_period', title: 'Free period', detail: 'free: within 30 s of the last charge' };
  }
  return { kind: 'free_count', title: 'Free quota used', detail: `free uses left: ${result.freeRemaining}` };
}

export function describeFailure(error: unknown): ConsumeEntry {
  if (isBillingError(error, 'insufficient_credits')) {
    return { kind: 'insufficient', title: 'Insufficient (20101)', detail: 'not enough credits: nothing charged' };
  }
  const detail = isBillingError(error) ? `${error.code}: ${error.message}` : String(error);
  return { kind: 'error', title: 'Failed', detail };
}
