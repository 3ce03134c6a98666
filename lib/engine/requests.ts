import { BillingError } from '../errors';
import type { BillingConsumeResult } from '../types';
import { Reply } from './reply';

/**
 * One `consume()` on the consume stream, carrying its own reply. The effect
 * decides it when its turn comes (call order, one at a time).
 */
export class ConsumeRequest extends Reply<BillingConsumeResult> {
  /** What the backend charged, once it said so: from then on the call can only succeed. */
  charged: BillingConsumeResult | null = null;

  constructor(
    /** Given by the caller or replayed; made only when a POST goes out. */
    public externalId: string | undefined,
    readonly signal: AbortSignal | undefined,
    /** Left unanswered by an earlier page: always asks the backend, whatever the free period says. */
    readonly replay: boolean,
    onSettled: (request: ConsumeRequest, ok: boolean, outcome: unknown) => void,
  ) {
    super(onSettled as (reply: Reply<BillingConsumeResult>, ok: boolean, outcome: unknown) => void);
  }

  // The one place a consume's error gets its externalId.
  protected override explain(error: unknown): BillingError {
    const known = error instanceof BillingError ? error : new BillingError('network', 'Unexpected failure of consume');
    const { externalId } = this;
    return externalId === undefined || known.externalId !== undefined ? known : known.withExternalId(externalId);
  }
}

/** A usage or balance load on the load stream; callers that arrive while one is in flight join it. */
export type LoadRequest =
  | { readonly kind: 'usage'; readonly fresh: boolean; readonly reply: Reply<void> }
  | { readonly kind: 'balance'; readonly fresh: boolean; readonly reply: Reply<number> };
