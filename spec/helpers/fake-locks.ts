import type { LocksLike } from '../../lib';

interface Request {
  readonly tab: number;
  readonly name: string;
  readonly grant: () => void;
  /** Granted on a later turn of the event loop, as a browser's lock manager does (`forTab`'s `later`). */
  readonly later: boolean;
  scheduled?: boolean;
}

const abortError = () => Object.assign(new Error('The request was aborted'), { name: 'AbortError' });

/**
 * How a lock manager may be broken (issue 23): `query` missing, throwing, rejecting, or answering junk
 * entries ahead of the real ones; `neverGrant`: a hung manager whose exclusive requests wait forever
 * (an abort still withdraws them).
 */
export interface LocksFlaws {
  readonly query?: 'missing' | 'throws' | 'rejects' | 'junk';
  readonly neverGrant?: boolean;
  /** `request()` throws at once instead of answering (a broken polyfill). */
  readonly requestThrows?: boolean;
}

const JUNK = [null, { name: 42 }, {}, { name: null }, 'free'] as unknown as Array<{ name: string }>;

/** How `query()` behaves, as the model draws it: `ok`, or one of the flaws. */
export type QueryMode = 'ok' | NonNullable<LocksFlaws['query']>;

/**
 * The one Web Locks stand-in (exclusive mode, `ifAvailable`, `signal`,
 * `query()`), shared by the pages of one origin: requests wait in order, a
 * lock is held until its callback's promise settles, and a page that dies
 * loses its locks and its place in line, as in a browser. With `paused`, a
 * free lock is granted only when the test says (`grant`), in the order it
 * picks: a lock manager slower than the page, as a busy browser process is.
 */
export class FakeLocks {
  private readonly held = new Map<string, { tab: number; release: () => void }>();
  // Shared `ifAvailable` probes in progress, by name: they hold the lock against exclusive requests, not each other.
  private readonly probing = new Map<string, number>();
  private waiting: Request[] = [];
  /** While true, no request is granted until `grant()`. */
  paused = false;
  /** False: a polyfill that ignores `signal`, so a request stays in line once asked. */
  honorsSignal = true;

  /** The names of the locks held now, in the order they were granted. */
  heldNames(): string[] {
    return [...this.held.keys()];
  }

  /** The names of the requests waiting now (`ifAvailable` ones never wait), in the order asked. */
  pendingNames(): string[] {
    return this.waiting.map((request) => request.name);
  }

  /**
   * Grants each waiting request whose lock is free, newest first with `newestFirst`
   * (an order a browser may also pick across names); returns how many were granted.
   */
  grant({ newestFirst = false }: { readonly newestFirst?: boolean } = {}): number {
    const order = newestFirst ? [...this.waiting].reverse() : [...this.waiting];
    let granted = 0;
    for (const request of order) {
      if (this.held.has(request.name) || !this.waiting.includes(request)) continue;
      this.waiting = this.waiting.filter((r) => r !== request);
      request.grant();
      granted += 1;
    }
    return granted;
  }

  constructor(private readonly flaws: LocksFlaws = {}) {}

  /** Requests waiting for a lock (a hung manager's included): what nobody withdrew. */
  get pending(): number {
    return this.waiting.length;
  }

  /**
   * The lock manager one page sees (its `navigator.locks`). With `later`, its requests are granted on a
   * later turn of the event loop (a `setImmediate`), as a browser grants in a task, not at once.
   */
  // The platform's query() too, which the library does not read (issue 30): a broken one changes nothing.
  forTab(tab: number, { later = false }: { later?: boolean } = {}): LocksLike & { query?: () => Promise<unknown> } {
    const flaw = this.flaws.query;
    const query = () => {
      if (flaw === 'throws') throw new TypeError('query is not supported here');
      if (flaw === 'rejects') return Promise.reject(new Error('query failed'));
      const held = [...this.held.keys()].map((name) => ({ name }));
      return Promise.resolve({
        held: flaw === 'junk' ? [...JUNK, ...held] : held,
        pending: this.waiting.map((request) => ({ name: request.name })),
      });
    };
    const request = <T>(
      name: string,
      { signal, ifAvailable, mode }: { signal?: AbortSignal; ifAvailable?: boolean; mode?: 'exclusive' | 'shared' },
      callback: (lock: unknown) => Promise<T>,
    ) =>
      new Promise<T>((resolve, reject) => {
        if (signal?.aborted === true && this.honorsSignal) return reject(abortError());
        const taken = this.held.has(name) || this.waiting.some((r) => r.name === name);
        // A shared probe: granted unless held exclusively or asked for, whatever other probes do.
        if (ifAvailable === true && mode === 'shared') {
          if (!taken) this.probing.set(name, (this.probing.get(name) ?? 0) + 1);
          return void Promise.resolve()
            .then(() => callback(taken ? null : { name, mode: 'shared' }))
            .then(resolve, reject)
            .finally(() => {
              if (taken) return;
              const left = (this.probing.get(name) ?? 1) - 1;
              if (left > 0) this.probing.set(name, left);
              else this.probing.delete(name);
              this.next(name);
            });
        }
        // Held (or asked for) elsewhere: the callback gets null at once, as the platform's does.
        if (ifAvailable === true && (taken || this.probing.has(name))) {
          return void Promise.resolve()
            .then(() => callback(null))
            .then(resolve, reject);
        }
        const asked: Request = {
          tab,
          name,
          later,
          grant: () => {
            let released = false;
            const release = () => {
              if (released) return;
              released = true;
              if (this.held.get(name)?.release === release) this.held.delete(name);
              this.next(name);
            };
            this.held.set(name, { tab, release });
            Promise.resolve()
              .then(() => callback({ name, mode: 'exclusive' }))
              .then(resolve, reject)
              .finally(release);
          },
        };
        const abort = () => {
          if (!this.waiting.includes(asked)) return;
          this.waiting = this.waiting.filter((r) => r !== asked);
          reject(abortError());
        };
        // Free, and asked only if available: granted at once, paused or not (it never waits).
        if (ifAvailable === true) return asked.grant();
        if (this.honorsSignal) signal?.addEventListener('abort', abort, { once: true });
        this.waiting.push(asked);
        this.next(name);
      });
    const asking: LocksLike['request'] =
      this.flaws.requestThrows === true
        ? () => {
            throw new TypeError('locks.request is not supported here');
          }
        : request;
    return flaw === 'missing' ? { request: asking } : { query, request: asking };
  }

  /** Requests whose grant is due on a later turn (`later`): the lock manager is not at rest while any are. */
  get granting(): number {
    return this.waiting.filter((r) => r.scheduled === true).length;
  }

  /** The locks `tab` holds and those it still waits for, by name (a disposed page should have none). */
  ownedBy(tab: number): { held: string[]; pending: string[] } {
    return {
      held: [...this.held].filter(([, holder]) => holder.tab === tab).map(([name]) => name),
      pending: this.waiting.filter((r) => r.tab === tab).map((r) => r.name),
    };
  }

  private next(name: string): void {
    if (this.paused || this.flaws.neverGrant === true) return;
    const busy = this.held.has(name) || this.probing.has(name);
    const first = busy ? undefined : this.waiting.find((r) => r.name === name);
    if (first === undefined) return;
    if (first.later) {
      // Still pending (and first in line) until its turn comes; aborted meanwhile, the next one goes.
      if (first.scheduled === true) return;
      first.scheduled = true;
      setImmediate(() => {
        first.scheduled = false;
        if (!this.waiting.includes(first)) return this.next(name);
        // Taken meanwhile by a request granted at once: its release asks again.
        if (this.held.has(name) || this.probing.has(name)) return;
        this.waiting = this.waiting.filter((r) => r !== first);
        first.grant();
      });
      return;
    }
    this.waiting = this.waiting.filter((r) => r !== first);
    first.grant();
  }

  /** A page went away: its locks are released and its requests dropped. */
  kill(tab: number): void {
    this.waiting = this.waiting.filter((r) => r.tab !== tab);
    for (const [name, holder] of [...this.held]) {
      if (holder.tab === tab) {
        this.held.delete(name);
        this.next(name);
      }
    }
  }
}
