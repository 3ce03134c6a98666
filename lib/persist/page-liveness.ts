import { EMPTY, Observable, catchError, from, map, merge, of, take, timer } from 'rxjs';
import type { SchedulerLike } from 'rxjs';
import type { EnginePlugin } from '../engine/extensions';
import type { LocksLike } from '../types';

/** How long a starting client waits for the owners of journal entries to say they are alive. */
export const LIVENESS_CAP_MS = 500;

/** Who owns journal entries: this client's id, and which other clients are alive. */
export interface PageLiveness {
  /** This client's page-instance id, written into its journal entries. */
  readonly id: string;
  /** Keeps this client findable (a held lock, or answers to pings) while subscribed, i.e. for its life. */
  readonly plugin: EnginePlugin;
  /** Of `owners`, the ones alive now; within {@link LIVENESS_CAP_MS}, and none when it cannot tell. */
  alive(owners: ReadonlySet<string>): Observable<ReadonlySet<string>>;
}

type Ping = { v: 1; kind: 'alive?'; nonce: string } | { v: 1; kind: 'alive'; id: string; nonce: string };

const none: ReadonlySet<string> = new Set();

/** Holds the lock `name` until unsubscribed. */
function hold(locks: LocksLike, name: string): Observable<never> {
  return new Observable<never>(() => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    locks.request(name, {}, () => held).catch(() => undefined);
    return () => release();
  });
}

function byLocks(locks: LocksLike, prefix: string, id: string, scheduler: SchedulerLike): PageLiveness {
  const query = locks.query?.bind(locks) as NonNullable<LocksLike['query']>;
  return {
    id,
    plugin: () => hold(locks, prefix + id),
    alive: (owners) => {
      if (owners.size === 0) return of(none);
      const answer$ = from(query()).pipe(
        map(({ held = [], pending = [] }) => {
          const names = new Set([...held, ...pending].map((lock) => lock.name));
          return new Set([...owners].filter((owner) => names.has(prefix + owner)));
        }),
        catchError(() => of(none)),
      );
      return merge(answer$, timer(LIVENESS_CAP_MS, scheduler).pipe(map(() => none))).pipe(take(1));
    },
  };
}

function byPings(name: string, id: string, scheduler: SchedulerLike): PageLiveness {
  return {
    id,
    plugin: () =>
      new Observable<never>(() => {
        const channel = new BroadcastChannel(name);
        channel.onmessage = ({ data }: MessageEvent) => {
          const ping = data as Partial<Ping> | null;
          if (ping?.v === 1 && ping.kind === 'alive?' && typeof ping.nonce === 'string') {
            channel.postMessage({ v: 1, kind: 'alive', id, nonce: ping.nonce } satisfies Ping);
          }
        };
        return () => channel.close();
      }),
    alive: (owners) => {
      if (owners.size === 0) return of(none);
      return new Observable<ReadonlySet<string>>((subscriber) => {
        const nonce = Math.random().toString(36).slice(2);
        const heard = new Set<string>();
        const channel = new BroadcastChannel(name);
        channel.onmessage = ({ data }: MessageEvent) => {
          const pong = data as Partial<Ping> | null;
          if (pong?.v !== 1 || pong.kind !== 'alive' || pong.nonce !== nonce || typeof pong.id !== 'string') return;
          if (owners.has(pong.id)) heard.add(pong.id);
          if (heard.size === owners.size) subscriber.next(heard);
        };
        const cap = timer(LIVENESS_CAP_MS, scheduler).subscribe(() => subscriber.next(heard));
        channel.postMessage({ v: 1, kind: 'alive?', nonce } satisfies Ping);
        return () => {
          cap.unsubscribe();
          channel.close();
        };
      }).pipe(take(1));
    },
  };
}

/**
 * Page liveness for the journal: with Web Locks (and `query`), each client
 * holds a lock named by its id for its life; else, with a BroadcastChannel,
 * it answers pings; with neither, no owner counts as alive (every entry is
 * replayed, as before owners existed).
 */
export function pageLiveness(scope: string, locks: LocksLike | null, scheduler: SchedulerLike): PageLiveness {
  const id = `${Math.random().toString(36).slice(2, 10)}${Math.random().toString(36).slice(2, 10)}`;
  const name = `unified-billing:${scope}:pages`;
  if (locks !== null && typeof locks.query === 'function') return byLocks(locks, `${name}:`, id, scheduler);
  if (typeof BroadcastChannel === 'function') return byPings(name, id, scheduler);
  return { id, plugin: () => EMPTY, alive: () => of(none) };
}
