import { EMPTY, Observable, catchError, from, map, merge, mergeMap, of, take, timer } from 'rxjs';
import type { SchedulerLike } from 'rxjs';
import type { Effect } from '../engine/effect';
import type { LocksLike } from '../feature-types';

/** How long a starting client waits for the owners of journal entries to answer. */
export const LIVENESS_CAP_MS = 500;

/** Live owners, each with the ids it still has in flight (`null`: alive, in flight unknown). */
export type LiveOwners = ReadonlyMap<string, ReadonlySet<string> | null>;

/** Who owns journal entries: this client's id, which other clients are alive, what they finished. */
export interface PageLiveness {
  /** This client's page-instance id, written into its journal entries. */
  readonly id: string;
  /** Keeps this client findable (a held lock, answers to pings) while subscribed, i.e. for its life. */
  readonly effect: Effect;
  /** Of `owners`, the live ones; within {@link LIVENESS_CAP_MS}, and none when it cannot tell. */
  alive(owners: ReadonlySet<string>): Observable<LiveOwners>;
  /** This client sends `externalId` (a journal entry it owns). */
  sending(externalId: string): void;
  /** This client is done with `externalId`: told to the others, whose copies of the entry can go. */
  settled(externalId: string): void;
  /** Called when another client reports an entry of its own done. */
  onSettled(handler: (owner: string, externalId: string) => void): void;
}

type Message =
  | { v: 1; kind: 'alive?'; nonce: string }
  | { v: 1; kind: 'alive'; id: string; nonce: string; pending: string[] }
  | { v: 1; kind: 'done'; owner: string; id: string };

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isTexts = (value: unknown): value is string[] => Array.isArray(value) && value.every(isText);

/** Holds the lock `name` until unsubscribed. */
function hold(locks: LocksLike, name: string): Observable<never> {
  return new Observable<never>(() => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    locks.request(name, {}, () => held).catch(() => undefined);
    return () => release();
  });
}

/** Asks `owners` over the channel `name`; the ones that answer within the cap, with what they have in flight. */
function ping(name: string, owners: ReadonlySet<string>, scheduler: SchedulerLike): Observable<LiveOwners> {
  return new Observable<LiveOwners>((subscriber) => {
    const nonce = Math.random().toString(36).slice(2);
    const heard = new Map<string, ReadonlySet<string>>();
    const channel = new BroadcastChannel(name);
    // Node only (browsers have no unref): an open channel must not keep a script alive.
    (channel as { unref?: () => void }).unref?.();
    channel.onmessage = ({ data }: MessageEvent) => {
      const pong = data as Partial<Message> | null;
      if (pong?.v !== 1 || pong.kind !== 'alive' || pong.nonce !== nonce || !isText(pong.id)) return;
      if (!owners.has(pong.id) || !isTexts(pong.pending)) return;
      heard.set(pong.id, new Set(pong.pending));
      if (heard.size === owners.size) subscriber.next(heard);
    };
    const cap = timer(LIVENESS_CAP_MS, scheduler).subscribe(() => subscriber.next(heard));
    channel.postMessage({ v: 1, kind: 'alive?', nonce } satisfies Message);
    return () => {
      cap.unsubscribe();
      channel.close();
    };
  }).pipe(take(1));
}

/**
 * Page liveness for the journal. With Web Locks (and `query`), each client
 * holds a lock named by its id for its life; with a BroadcastChannel, it
 * answers pings with the ids it has in flight, and tells when it is done with
 * one. With neither, no owner counts as alive: every entry is replayed, as
 * before entries had owners.
 */
export function pageLiveness(scope: string, locks: LocksLike | null, scheduler: SchedulerLike): PageLiveness {
  const id = `${Math.random().toString(36).slice(2, 10)}${Math.random().toString(36).slice(2, 10)}`;
  const name = `unified-billing:${scope}:pages`;
  const lockPrefix = `${name}:`;
  const withLocks = locks !== null && typeof locks.query === 'function';
  const withChannel = typeof BroadcastChannel === 'function';
  const inFlight = new Set<string>();
  const handlers: Array<(owner: string, externalId: string) => void> = [];
  let channel: BroadcastChannel | null = null;

  const listen$ = new Observable<never>(() => {
    const open = new BroadcastChannel(name);
    // Node only (browsers have no unref): an open channel must not keep a script alive.
    (open as { unref?: () => void }).unref?.();
    channel = open;
    open.onmessage = ({ data }: MessageEvent) => {
      const message = data as Partial<Message> | null;
      if (message?.v !== 1) return;
      if (message.kind === 'alive?' && isText(message.nonce)) {
        open.postMessage({ v: 1, kind: 'alive', id, nonce: message.nonce, pending: [...inFlight] } satisfies Message);
      }
      if (message.kind === 'done' && isText(message.owner) && isText(message.id) && message.owner !== id) {
        const { owner, id: externalId } = message;
        handlers.forEach((handler) => handler(owner, externalId));
      }
    };
    return () => {
      channel = null;
      open.close();
    };
  });

  const byLocks = (owners: ReadonlySet<string>): Observable<LiveOwners> => {
    const query = (locks as LocksLike).query as NonNullable<LocksLike['query']>;
    const live$ = from(query.call(locks)).pipe(
      map(({ held = [], pending = [] }) => {
        const names = new Set([...held, ...pending].map((lock) => lock.name));
        return new Set([...owners].filter((owner) => names.has(lockPrefix + owner)));
      }),
      catchError(() => of(new Set<string>())),
    );
    const capped$ = merge(live$, timer(LIVENESS_CAP_MS, scheduler).pipe(map(() => new Set<string>()))).pipe(take(1));
    return capped$.pipe(
      mergeMap((live) => {
        const unknown = new Map([...live].map((owner) => [owner, null] as const));
        if (live.size === 0 || !withChannel) return of(unknown);
        // Alive for sure; what each still has in flight is worth a ping, which live pages answer at once.
        return ping(name, live, scheduler).pipe(map((heard) => new Map([...unknown, ...heard])));
      }),
    );
  };

  return {
    id,
    effect: () => merge(withLocks ? hold(locks as LocksLike, lockPrefix + id) : EMPTY, withChannel ? listen$ : EMPTY),
    alive: (owners) => {
      if (owners.size === 0) return of(new Map());
      if (withLocks) return byLocks(owners);
      return withChannel ? ping(name, owners, scheduler) : of(new Map());
    },
    sending: (externalId) => void inFlight.add(externalId),
    settled: (externalId) => {
      inFlight.delete(externalId);
      try {
        channel?.postMessage({ v: 1, kind: 'done', owner: id, id: externalId } satisfies Message);
      } catch {
        // A closing page may refuse to post; a copy then keeps the entry until the owner is gone.
      }
    },
    onSettled: (handler) => void handlers.push(handler),
  };
}
