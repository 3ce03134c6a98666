import type { LocksLike } from '../../lib/feature-types';

interface Request {
  readonly tab: number;
  readonly name: string;
  readonly grant: () => void;
  readonly signal: AbortSignal | undefined;
}

/**
 * A Web Locks stand-in for Node (exclusive mode only, `ifAvailable` included), shared by the tabs of
 * one origin: requests wait in order, a lock is held until its callback's
 * promise settles, and a page that dies loses its locks and its place in line,
 * as in a browser.
 */
export class FakeLocks {
  private readonly held = new Map<string, { tab: number; release: () => void }>();
  private waiting: Request[] = [];

  /** The lock manager one tab sees (its `navigator.locks`). */
  forTab(tab: number): LocksLike {
    return {
      // What every tab of the origin holds and waits for, as `navigator.locks.query()` reports it.
      query: () =>
        Promise.resolve({
          held: [...this.held.keys()].map((name) => ({ name })),
          pending: this.waiting.map((request) => ({ name: request.name })),
        }),
      request: <T>(
        name: string,
        options: { signal?: AbortSignal; ifAvailable?: boolean },
        callback: (lock: unknown) => Promise<T>,
      ) =>
        new Promise<T>((resolve, reject) => {
          const { signal } = options;
          const abortError = () => Object.assign(new Error('The request was aborted'), { name: 'AbortError' });
          if (signal?.aborted === true) return reject(abortError());
          // Held (or asked for) elsewhere: the callback gets null at once, as the platform's does.
          if (options.ifAvailable === true && (this.held.has(name) || this.waiting.some((r) => r.name === name))) {
            return void Promise.resolve()
              .then(() => callback(null))
              .then(resolve, reject);
          }
          const request: Request = {
            tab,
            name,
            signal,
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
          signal?.addEventListener(
            'abort',
            () => {
              if (!this.waiting.includes(request)) return;
              this.waiting = this.waiting.filter((r) => r !== request);
              reject(abortError());
            },
            { once: true },
          );
          this.waiting.push(request);
          this.next(name);
        }),
    };
  }

  private next(name: string): void {
    if (this.held.has(name)) return;
    const request = this.waiting.find((r) => r.name === name);
    if (request === undefined) return;
    this.waiting = this.waiting.filter((r) => r !== request);
    request.grant();
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
