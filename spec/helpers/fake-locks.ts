import type { LocksLike } from '../../lib/feature-types';

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
 * How `query()` behaves: as the platform's (`ok`); absent, as our own `LocksLike` allows (`missing`);
 * throwing at once or rejecting (`throws`, `rejects`); or answering with junk entries (a `null`, a
 * non-string name, an entry without one) ahead of the real ones, as a polyfill might (`junk`).
 */
export type QueryMode = 'ok' | 'missing' | 'throws' | 'rejects' | 'junk';

const JUNK = [null, { name: 42 }, {}] as unknown as Array<{ name: string }>;

/**
 * The one Web Locks stand-in (exclusive mode, `ifAvailable`, `signal`,
 * `query()`), shared by the pages of one origin: requests wait in order, a
 * lock is held until its callback's promise settles, and a page that dies
 * loses its locks and its place in line, as in a browser.
 */
export class FakeLocks {
  private readonly held = new Map<string, { tab: number; release: () => void }>();
  private waiting: Request[] = [];

  constructor(readonly queryMode: QueryMode = 'ok') {}

  /**
   * The lock manager one page sees (its `navigator.locks`). With `later`, its requests are granted on a
   * later turn of the event loop (a `setImmediate`), as a browser grants in a task, not at once.
   */
  forTab(tab: number, { later = false }: { later?: boolean } = {}): LocksLike {
    const junk = this.queryMode === 'junk' ? JUNK : [];
    const query = () => {
      if (this.queryMode === 'throws') throw new TypeError('query is not supported');
      if (this.queryMode === 'rejects') return Promise.reject(new Error('The lock manager is unavailable'));
      return Promise.resolve({
        held: [...junk, ...[...this.held.keys()].map((name) => ({ name }))],
        pending: [...junk, ...this.waiting.map((request) => ({ name: request.name }))],
      });
    };
    const request = <T>(
      name: string,
      { signal, ifAvailable }: { signal?: AbortSignal; ifAvailable?: boolean },
      callback: (lock: unknown) => Promise<T>,
    ) =>
      new Promise<T>((resolve, reject) => {
        if (signal?.aborted === true) return reject(abortError());
        // Held (or asked for) elsewhere: the callback gets null at once, as the platform's does.
        if (ifAvailable === true && (this.held.has(name) || this.waiting.some((r) => r.name === name))) {
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
        signal?.addEventListener('abort', abort, { once: true });
        this.waiting.push(asked);
        this.next(name);
      });
    return this.queryMode === 'missing' ? { request } : { query, request };
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
    const first = this.held.has(name) ? undefined : this.waiting.find((r) => r.name === name);
    if (first === undefined) return;
    if (first.later) {
      // Still pending (and first in line) until its turn comes; aborted meanwhile, the next one goes.
      if (first.scheduled === true) return;
      first.scheduled = true;
      setImmediate(() => {
        first.scheduled = false;
        if (!this.waiting.includes(first)) return this.next(name);
        // Taken meanwhile by a request granted at once: its release asks again.
        if (this.held.has(name)) return;
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
