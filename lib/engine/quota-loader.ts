import { defer, forkJoin, map, tap, type Observable } from 'rxjs';
import type { BillingAction } from '../core/actions';
import type { BillingApi } from '../transport/billing-api';
import { sharedInFlight } from './shared-in-flight';

/** The GET side of the engine: usage and balance loads, shared while in flight. */
export interface QuotaLoader {
  /** Both GETs in parallel; one `usage/loaded` action, or an error that changes nothing. */
  usage(): Observable<BillingAction>;
  /** The balance GET; `fresh` skips a request that was sent before a charge. */
  balance(fresh?: boolean): Observable<number>;
}

/** Each load is numbered when sent, so the reducer can drop answers older than what it holds. */
export function createQuotaLoader(
  api: BillingApi,
  dispatch: (action: BillingAction) => void,
  nextSeq: () => number,
): QuotaLoader {
  const usage = sharedInFlight(() =>
    defer(() => {
      const seq = nextSeq();
      return forkJoin([api.freeCount$(), api.balance$()]).pipe(
        map(([free, creditsBalance]): BillingAction => ({
          type: 'usage/loaded',
          seq,
          quota: { ...free, creditsBalance },
        })),
        tap(dispatch),
      );
    }),
  );
  const balance = sharedInFlight(() =>
    defer(() => {
      const seq = nextSeq();
      return api.balance$().pipe(tap((value) => dispatch({ type: 'balance/loaded', seq, balance: value })));
    }),
  );
  return { usage: () => usage(), balance };
}
