import { Observable, type Subscription } from 'rxjs';
import type { BillingAction } from '../core/actions';
import { inFreePeriod } from '../core/decide';
import type { BillingState } from '../core/state';
import { BillingError } from '../errors';
import type { BillingApi } from '../transport/billing-api';
import type { BillingConsumeResult } from '../types';
import { BACKEND_CODES } from '../wire';
import type { Effect, EffectDeps, StateSource } from './effect';
import type { Exclusive } from './feature';
import { fromCall } from './from-call';
import type { Monitor } from './monitor';
import { Reply } from './reply';
import type { ConsumeRequest, LoadRequest } from './requests';

/** What the consume effect needs besides the clock. */
export interface ConsumeDeps extends EffectDeps {
  readonly api: BillingApi;
  readonly consumes$: Observable<ConsumeRequest>;
  /** Asks the quota effect for a load (the balance refresh after a credit charge). */
  readonly load: (request: LoadRequest) => void;
  readonly nextSeq: () => number;
  /** A fresh idempotency key, made only for a consume that sends a POST. */
  readonly newId: () => string;
  readonly exclusive?: Exclusive;
  /** Records a consume before its POST goes out; the engine clears it once the caller has the outcome. */
  readonly journal?: (externalId: string) => void;
  readonly monitor: Monitor;
}

/** The result of a consume the backend is not asked about (a free period) or that charged nothing. */
export function unchargedResult(state: BillingState, isBlacklisted = false): BillingConsumeResult {
  return { freeRemaining: state.quota?.freeRemaining ?? 0, isCredit: false, isBlacklisted };
}

const CONSUME_SENT = Object.freeze({ kind: 'consume/sent' } as const);
const CONSUME_ANSWERED = Object.freeze({ kind: 'consume/answered' } as const);

function free(request: ConsumeRequest, state$: StateSource, deps: ConsumeDeps): boolean {
  return !request.replay && inFreePeriod(state$.value, deps.scheduler.now());
}

// Decide when the turn comes, then POST: an earlier consume may have started a free period.
function work(request: ConsumeRequest, state$: StateSource, deps: ConsumeDeps): Observable<BillingAction> {
  return new Observable<BillingAction>((out) => {
    if (request.signal?.aborted === true) {
      request.reject(new BillingError('aborted', 'consume() was aborted before any request was sent'));
      return out.complete();
    }
    if (free(request, state$, deps)) {
      request.resolve(unchargedResult(state$.value));
      return out.complete();
    }
    const externalId = (request.externalId ??= deps.newId());
    // Journaled before the POST: a page that dies before the caller hears the outcome leaves it to replay.
    deps.journal?.(externalId);
    let seq = 0;
    let sentAt = 0;
    let refresh: Reply<number> | null = null;
    // Sent and not yet answered: what the status counts as pending, until an answer or giving up.
    let pending = true;
    const answered = () => {
      if (pending) deps.monitor.note(CONSUME_ANSWERED);
      pending = false;
    };
    deps.monitor.note(CONSUME_SENT);
    const onSend = () => {
      seq = deps.nextSeq();
      sentAt = deps.scheduler.now();
    };
    const post = fromCall((options) => deps.api.consume(externalId, options), onSend).subscribe({
      next: (answer) => {
        answered();
        if (answer.kind === 'blacklisted') {
          request.resolve(unchargedResult(state$.value, true));
        } else if (answer.kind === 'insufficient') {
          out.next({ type: 'consume/insufficient', seq, sentAt });
          request.reject(
            new BillingError('insufficient_credits', 'Not enough credits for this operation', {
              backendCode: BACKEND_CODES.insufficient,
            }),
          );
        } else {
          const { freeRemaining, isCredit } = answer;
          const result: BillingConsumeResult = { freeRemaining, isCredit, isBlacklisted: false };
          request.charged = result;
          out.next({ type: 'consume/charged', seq, now: deps.scheduler.now(), freeRemaining, isCredit, sentAt });
          if (isCredit && !request.settled) {
            // The charge stands: a failed refresh must not fail the consume, and an abort only cuts it short.
            refresh = new Reply<number>();
            deps.load({ kind: 'balance', fresh: true, reply: refresh });
            const done = () => {
              request.resolve(result);
              out.complete();
            };
            refresh.promise.then(done, done);
            return;
          }
          request.resolve(result);
        }
        out.complete();
      },
      error: (error: unknown) => {
        answered();
        request.reject(error);
        out.complete();
      },
    });
    return () => {
      post.unsubscribe();
      answered();
      if (refresh !== null && !refresh.settled) refresh.cancel?.();
    };
  });
}

// Interim adapter (the engine rewrite replaces it): runs work$ once the promise-based lock is held.
function locked<T>(exclusive: Exclusive, work$: Observable<T>): Observable<T> {
  return new Observable<T>((out) => {
    const controller = new AbortController();
    let release: (() => void) | undefined;
    let inner: Subscription | undefined;
    let closed = false;
    exclusive(controller.signal).then(
      (done) => {
        if (closed) return done();
        release = done;
        inner = work$.subscribe(out);
      },
      (error: unknown) => out.error(error),
    );
    return () => {
      closed = true;
      controller.abort();
      inner?.unsubscribe();
      release?.();
    };
  });
}

/**
 * Consume requests, one at a time in call order: each ends in facts for the
 * reducer and its own reply settled. An aborted or disposed request stops its
 * work (`cancel`), and the next one starts.
 */
export const consumeEffect: Effect<ConsumeDeps> = (_action$, state$, deps) =>
  new Observable<BillingAction>((out) => {
    const queue: ConsumeRequest[] = [];
    let running: Subscription | null = null;
    let busy = false;
    let draining = false;
    const start = (request: ConsumeRequest) => {
      busy = true;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        request.cancel = null;
        running = null;
        busy = false;
        drain();
      };
      const lock = deps.exclusive !== undefined && request.signal?.aborted !== true && !free(request, state$, deps);
      const work$ = work(request, state$, deps);
      // Decided again once the tab lock is held: another tab's charge may have started a free period.
      const subscription = (lock ? locked(deps.exclusive as Exclusive, work$) : work$).subscribe({
        next: (action) => out.next(action),
        error: (error: unknown) => {
          request.reject(error);
          finish();
        },
        complete: finish,
      });
      if (finished) return;
      running = subscription;
      request.cancel = () => {
        subscription.unsubscribe();
        finish();
      };
    };
    // A loop, not recursion: thousands of consumes settled at once must not grow the stack.
    const drain = () => {
      if (draining) return;
      draining = true;
      while (!busy && queue.length > 0) {
        const request = queue.shift() as ConsumeRequest;
        if (!request.settled) start(request);
      }
      draining = false;
    };
    const subscription = deps.consumes$.subscribe((request) => {
      queue.push(request);
      drain();
    });
    return () => {
      subscription.unsubscribe();
      (running as Subscription | null)?.unsubscribe();
      queue.length = 0;
    };
  });
