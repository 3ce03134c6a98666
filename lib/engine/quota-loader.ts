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

/**
 * Each attempt is numbered as it goes out (a retry is newer than what was
 * sent before it), so the reducer can drop answers older than what it holds.
 */
export function createQuotaLoader(
  api: BillingApi,
  dispatch: (action: BillingAction) => void,
  nextSeq: () => number,
  now: () => number,
): QuotaLoader {
  const usage = sharedInFlight(() =>
    defer(() => {
      let seq = 0;
      let balanceSeq = 0;
      let freeAt = 0;
      let balanceAt = 0;
      const free$ = api.freeCount$(() => {
        seq = nextSeq();
        freeAt = now();
      });
      const balance$ = api.balance$(() => {
        balanceSeq = nextSeq();
        balanceAt = now();
      });
      return forkJoin([free$, balance$]).pipe(
        map(([free, creditsBalance]): BillingAction => ({
          type: 'usage/loaded',
          seq,
          balanceSeq,
          quota: { ...free, creditsBalance },
          sentAt: freeAt,
          balanceSentAt: balanceAt,
        })),
        tap(dispatch),
      );
    }),
  );
  const balance = sharedInFlight(() =>
    defer(() => {
      let seq = 0;
      let sentAt = 0;
      return api
        .balance$(() => {
          seq = nextSeq();
          sentAt = now();
        })
        .pipe(tap((value) => dispatch({ type: 'balance/loaded', seq, balance: value, sentAt })));
    }),
  );
  return { usage: () => usage(), balance };
}
