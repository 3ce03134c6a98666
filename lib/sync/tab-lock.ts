import {
  Observable,
  Subscription,
  catchError,
  concatMap,
  defer,
  filter,
  forkJoin,
  map,
  merge,
  of,
  retry,
  take,
  tap,
  throwError,
  timer,
} from 'rxjs';
import type { SchedulerLike } from 'rxjs';
import type { LocksLike } from '../feature-types';
import type { TabChannel } from './tab-channel';

/** How long a claimant listens for competing claims before it takes the lock (no Web Locks). */
export const CLAIM_WINDOW_MS = 50;
/** How long a new holder waits for a silent tab's pong before counting it gone. */
export const HANDOVER_CAP_MS = 1_000;
/**
 * How long after its hello a new tab listens for the other tabs' answers
 * (their state and any claim) before its first consume decides.
 */
export const HELLO_ROUND_MS = 100;
const MAX_CLAIM_ROUNDS = 20;

/** Limits of the lock, from the client's options. */
export interface TabLockLimits {
  readonly scheduler: SchedulerLike;
  /** The longest a consume can hold the lock (all attempts and backoffs); a silent holder is presumed gone after it. */
  readonly holdCapMs: number;
  readonly wallNow: () => number;
}

/**
 * Completes once no other tab holds an unreleased claim, or after `capMs`
 * (the holder is then presumed gone). A tab's messages arrive in the order it
 * sent them, so once its release is in, so is the state it shared before.
 */
function othersDone$(channel: TabChannel, capMs: number, scheduler: SchedulerLike): Observable<void> {
  return defer(() => {
    if (channel.claims.size === 0) return of(undefined);
    const released$ = channel.messages$.pipe(filter(() => channel.claims.size === 0));
    const gaveUp$ = timer(capMs, scheduler).pipe(tap(() => channel.claims.clear()));
    return merge(released$, gaveUp$).pipe(
      take(1),
      map(() => undefined),
    );
  });
}

/**
 * Completes once every known tab has answered a ping, so everything they
 * posted before (a charge, a release) has arrived; a tab silent for
 * `capMs` is forgotten. This is what makes the lock hand the free period over.
 */
function handover$(channel: TabChannel, scheduler: SchedulerLike): Observable<void> {
  return defer(() => {
    const waiting = new Set(channel.peers);
    if (waiting.size === 0) return of(undefined);
    const nonce = Math.random().toString(36).slice(2);
    const answered$ = channel.messages$.pipe(
      filter((message) => message.kind === 'pong' && message.to === channel.id && message.nonce === nonce),
      tap((message) => waiting.delete(message.from)),
      filter(() => waiting.size === 0),
    );
    const gaveUp$ = timer(HANDOVER_CAP_MS, scheduler).pipe(
      tap(() => waiting.forEach((peer) => channel.peers.delete(peer))),
    );
    channel.post({ kind: 'ping', nonce });
    return merge(answered$, gaveUp$).pipe(
      take(1),
      map(() => undefined),
    );
  });
}

/**
 * Completes once the hello round is over: a tab that consumes at start-up
 * would otherwise decide before the others told it of their free period or claim.
 */
function helloRound$(channel: TabChannel, scheduler: SchedulerLike): Observable<void> {
  return defer(() => {
    const left = (channel.helloAt ?? scheduler.now()) + HELLO_ROUND_MS - scheduler.now();
    return left > 0 ? timer(left, scheduler).pipe(map(() => undefined)) : of(undefined);
  });
}

/** Emits once the Web Lock is held; unsubscribing releases it (or stops waiting for it). */
function webLock$(locks: LocksLike, name: string): Observable<void> {
  return new Observable<void>((subscriber) => {
    const controller = new AbortController();
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    locks
      .request(name, { signal: controller.signal }, async () => {
        if (!subscriber.closed) subscriber.next();
        await held;
      })
      .catch(() => undefined);
    return () => {
      release();
      controller.abort();
    };
  });
}

// Lower claim time wins, ties broken by tab id, so every tab agrees on the winner.
function beaten(channel: TabChannel, at: number): boolean {
  return [...channel.claims].some(([from, theirs]) => theirs < at || (theirs === at && from < channel.id));
}

/**
 * Without Web Locks: wait for other holders, claim, listen for a window; the
 * earliest claim wins and the others withdraw and wait for its release.
 * Exclusive as long as the channel delivers within the window.
 */
function claimLock$(channel: TabChannel, limits: TabLockLimits, claim: (at: number) => void): Observable<void> {
  const round$ = othersDone$(channel, limits.holdCapMs, limits.scheduler).pipe(
    concatMap(() => {
      const at = limits.wallNow();
      claim(at);
      return timer(CLAIM_WINDOW_MS, limits.scheduler).pipe(map(() => at));
    }),
    concatMap((at) => {
      if (!beaten(channel, at)) return of(undefined);
      channel.withdraw();
      return throwError(() => new Error('claim lost'));
    }),
  );
  // After many lost rounds the consume goes ahead: its external_id still prevents a double charge of itself.
  return round$.pipe(
    retry(MAX_CLAIM_ROUNDS),
    catchError(() => of(undefined)),
  );
}

/**
 * Runs `work$` while this tab holds the consume lock of its scope: Web Locks
 * where available, else the claim protocol over the channel; never before the
 * tab's hello round is over. The holder posts `claim` when it starts (and again
 * to each tab that says hello meanwhile) and `release` when it is done, after
 * anything `work$` made it share.
 */
export function tabExclusive(channel: TabChannel, name: string, locks: LocksLike | null, limits: TabLockLimits) {
  return <T>(work$: Observable<T>): Observable<T> =>
    new Observable<T>((subscriber) => {
      const claim = (at: number) => channel.announce(at);
      // The Web Lock stays held while this subscription lives: webLock$ never completes.
      const locked$ =
        locks === null
          ? claimLock$(channel, limits, claim)
          : webLock$(locks, name).pipe(tap(() => claim(limits.wallNow())));
      const hello$ = helloRound$(channel, limits.scheduler);
      const handover = () => handover$(channel, limits.scheduler);
      // The claim protocol must hear the others' claims before claiming; under a Web Lock,
      // the hello round only has to be over before deciding, so it runs with the handover.
      const acquired$ =
        locks === null
          ? hello$.pipe(
              concatMap(() => locked$),
              concatMap(handover),
            )
          : locked$.pipe(concatMap(() => forkJoin([handover(), hello$]).pipe(map(() => undefined))));
      const work = new Subscription();
      const lease = acquired$.subscribe({
        next: () => work.add(work$.subscribe(subscriber)),
        error: (error: unknown) => subscriber.error(error),
      });
      return () => {
        work.unsubscribe();
        // Released on the channel before the Web Lock, so the next holder has the message in hand.
        channel.withdraw();
        lease.unsubscribe();
      };
    });
}
