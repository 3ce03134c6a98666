import { Subscription, type Observable } from 'rxjs';
import { BillingError } from '../errors';
import type { BillingConsumeResult } from '../types';
import { aborted$ } from './abort';
import type { EngineAction } from './engine-actions';

/** What one consume's caller waits on. */
export interface ReplyWatch {
  readonly id: number;
  readonly signal: AbortSignal | undefined;
  readonly action$: Observable<EngineAction>;
  /** Where the reply registers what to do if the client is disposed first. */
  readonly onDispose: Set<() => void>;
  readonly disposedError: () => BillingError;
  /** Runs as the caller gets the outcome, before it settles. */
  readonly settled: () => void;
}

/**
 * The outcome of consume `id` for its caller. Until the backend has charged,
 * an abort or dispose fails the call (nothing was charged, or a retry with the
 * same id tells); once it has, the charge stands and the call resolves with it.
 */
export function consumeReply(watch: ReplyWatch): Promise<BillingConsumeResult> {
  const { id, onDispose } = watch;
  return new Promise<BillingConsumeResult>((resolve, reject) => {
    let charged: BillingConsumeResult | null = null;
    const subscriptions = new Subscription();
    // Synchronous, so on dispose the journal is cleared before the features (and their channels) go.
    const end = (settle: () => void) => {
      subscriptions.unsubscribe();
      onDispose.delete(disposed);
      watch.settled();
      settle();
    };
    const disposed = () => {
      const result = charged;
      end(() => (result === null ? reject(watch.disposedError()) : resolve(result)));
    };
    onDispose.add(disposed);
    subscriptions.add(
      watch.action$.subscribe((action) => {
        if (action.type === 'consume/answered' && action.id === id) charged = action.result;
        if (action.type !== 'consume/settled' || action.id !== id) return;
        const { outcome } = action;
        end(() => (outcome.ok ? resolve(outcome.result) : reject(outcome.error)));
      }),
    );
    subscriptions.add(
      aborted$(watch.signal).subscribe(() => {
        if (charged === null) end(() => reject(new BillingError('aborted', 'consume() was aborted')));
      }),
    );
  });
}
