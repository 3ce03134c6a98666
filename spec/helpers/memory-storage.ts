import type { StorageLike } from '../../lib';

/** A `localStorage` stand-in that survives "reloads" (clients created on it in turn), with a switch to make it throw. */
export class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  failWith: Error | null = null;
  /** Only writes throw (a full quota): reads and removals still work. */
  failWrites: Error | null = null;

  getItem(key: string): string | null {
    this.fail();
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.fail();
    if (this.failWrites !== null) throw this.failWrites;
    this.items.set(key, value);
  }

  removeItem(key: string): void {
    this.fail();
    this.items.delete(key);
  }

  private fail(): void {
    if (this.failWith !== null) throw this.failWith;
  }
}

/** A DOMException-like error, as Safari's private mode and a full quota throw. */
export function quotaError(): Error {
  return Object.assign(new Error('The quota has been exceeded. value=Bearer secret-token'), {
    name: 'QuotaExceededError',
  });
}
