import { EMPTY, catchError, concat, concatMap, defer, filter, ignoreElements, mergeMap, of, takeUntil } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import { decide } from '../core/decide';
import type { BillingState } from '../core/state';
import { BillingError } from '../errors';
import type { BillingApi, ConsumeAnswer } from '../transport/billing-api';
import type { BillingConsumeResult } from '../types';
import { aborted$, failWhen } from './abort';
import type { ConsumeRequested, ConsumeSettled, EngineAction } from './engine-actions';
import type { ConsumeJournal, EngineExtensions } from './extensions';
import type { QuotaLoader } from './quota-loader';

/** What the consume effect needs from the outside world. */
export interface ConsumeDeps {
  readonly api: BillingApi;
  readonly loader: QuotaLoader;
  readonly scheduler: SchedulerLike;
  readonly nextSeq: () => number;
  readonly exclusive?: EngineExtensions['exclusive'];
  /** Records a consume before its POST goes out; the engine clears it once the caller has the outcome. */
  readonly journal?: Pick<ConsumeJournal, 'add'>;
}

type StateSource = { readonly state: BillingState };

function settle(request: ConsumeRequested, result: BillingConsumeResult): ConsumeSettled {
  return { type: 'consume/settled', id: request.id, outcome: { ok: true, result } };
}

function reject(request: ConsumeRequested, error: unknown): ConsumeSettled {
  const known = error instanceof BillingError ? error : new BillingError('network', 'Unexpected failure of consume');
  return {
    type: 'consume/settled',
    id: request.id,
    outcome: { ok: false, error: known.withExternalId(request.externalId) },
  };
}

function cachedFree(store: StateSource): number {
  return store.state.quota?.freeRemaining ?? 0;
}

function afterAnswer(
  answer: ConsumeAnswer,
  request: ConsumeRequested,
  seq: number,
  store: StateSource,
  deps: ConsumeDeps,
): Observable<EngineAction> {
  switch (answer.kind) {
    case 'blacklisted':
      return of(settle(request, { freeRemaining: cachedFree(store), isCredit: false, isBlacklisted: true }));
    case 'insufficient': {
      const error = new BillingError('insufficient_credits', 'Not enough credits for this operation', {
        backendCode: 20101,
      });
      return of({ type: 'consume/insufficient', seq } as const, reject(request, error));
    }
    case 'charged': {
      const { freeRemaining, isCredit } = answer;
      const now = deps.scheduler.now();
      const result: BillingConsumeResult = { freeRemaining, isCredit, isBlacklisted: false };
      // The charge happened: a failed refresh must not fail the consume, and an abort only cuts the refresh short.
      const refresh$ = isCredit
        ? deps.loader.balance(true).pipe(
            ignoreElements(),
            catchError(() => EMPTY),
            takeUntil(aborted$(request.signal)),
          )
        : EMPTY;
      return concat(
        of(
          { type: 'consume/charged', seq, now, freeRemaining, isCredit } as const,
          { type: 'consume/answered', id: request.id, result } as const,
        ),
        refresh$,
        of(settle(request, result)),
      );
    }
  }
}

function inFreePeriod(request: ConsumeRequested, store: StateSource, deps: ConsumeDeps): boolean {
  return request.replay !== true && decide(store.state, deps.scheduler.now()).reason === 'free_period';
}

function freeOfCharge(request: ConsumeRequested, store: StateSource): Observable<EngineAction> {
  return of(settle(request, { freeRemaining: cachedFree(store), isCredit: false, isBlacklisted: false }));
}

function post(request: ConsumeRequested, store: StateSource, deps: ConsumeDeps): Observable<EngineAction> {
  const { externalId } = request;
  const seq = deps.nextSeq();
  // Journaled before the POST; a page that dies before the caller hears the
  // outcome leaves the entry for the next start to replay with the same id.
  deps.journal?.add(externalId);
  return deps.api.consume$(externalId).pipe(
    failWhen(
      aborted$(request.signal),
      () => new BillingError('aborted', 'consume() was aborted after the request was sent'),
    ),
    mergeMap((answer) => afterAnswer(answer, request, seq, store, deps)),
    catchError((error: unknown) => of(reject(request, error))),
  );
}

function decideAndPost(request: ConsumeRequested, store: StateSource, deps: ConsumeDeps): Observable<EngineAction> {
  if (request.signal?.aborted === true) {
    return of(reject(request, new BillingError('aborted', 'consume() was aborted before any request was sent')));
  }
  // Decided now, not when called: an earlier consume in the queue may have started a free period.
  return inFreePeriod(request, store, deps) ? freeOfCharge(request, store) : post(request, store, deps);
}

function runConsume(request: ConsumeRequested, store: StateSource, deps: ConsumeDeps): Observable<EngineAction> {
  return defer(() => {
    const local$ = defer(() => decideAndPost(request, store, deps));
    if (deps.exclusive === undefined || request.signal?.aborted === true || inFreePeriod(request, store, deps)) {
      return local$;
    }
    // Decided again once the tab lock is held: another tab's charge may have started a free period meanwhile.
    return deps.exclusive(local$);
  });
}

/**
 * Consume requests from the action stream, one at a time in call order, each
 * ending in facts for the reducer and exactly one `consume/settled`.
 */
export function consumeEffect(
  action$: Observable<EngineAction>,
  store: StateSource,
  deps: ConsumeDeps,
): Observable<EngineAction> {
  return action$.pipe(
    filter((action): action is ConsumeRequested => action.type === 'consume/requested'),
    concatMap((request) => runConsume(request, store, deps)),
  );
}
