import type { BillingState } from '../core/state';
import type { BillingConsumeResult } from '../types';
import { unchargedResult } from './consume-effect';

/**
 * The answer to a consume a free period covers, with nothing queued: one
 * resolved promise, kept while the free count it shows is unchanged, so a
 * burst of such consumes allocates nothing.
 */
export class FreeReply {
  private free = -1;
  private promise: Promise<BillingConsumeResult> | null = null;

  for(state: BillingState): Promise<BillingConsumeResult> {
    const free = state.quota?.freeRemaining ?? 0;
    if (this.promise === null || free !== this.free) {
      this.free = free;
      this.promise = Promise.resolve(Object.freeze(unchargedResult(state)));
    }
    return this.promise;
  }
}
