import type { StorageLike } from '../feature-types';

/**
 * A storage that never throws (Safari private mode, a full quota, a blocked
 * `localStorage`), with one warning that names only the error class. A write
 * that fails removes the key instead, so the storage never holds state older
 * than this page's; the page keeps the value in memory. Removals always reach
 * the storage.
 */
export class SafeStorage {
  private readonly memory = new Map<string, string>();
  private warned = false;

  constructor(
    private readonly storage: StorageLike,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {}

  get(key: string): string | null {
    const kept = this.memory.get(key);
    return kept !== undefined ? kept : this.attempt(() => this.storage.getItem(key), null);
  }

  set(key: string, value: string): void {
    if (this.attempt(() => (this.storage.setItem(key, value), true), false)) this.memory.delete(key);
    else {
      this.memory.set(key, value);
      this.attempt(() => this.storage.removeItem(key), undefined);
    }
  }

  remove(key: string): void {
    this.memory.delete(key);
    this.attempt(() => this.storage.removeItem(key), undefined);
  }

  private attempt<T>(real: () => T, fallback: T): T {
    try {
      return real();
    } catch (error) {
      if (!this.warned) {
        this.warned = true;
        // The class only: a message could quote what was being stored.
        const kind = error instanceof Error ? error.name : typeof error;
        this.warn(`unified-billing: storage failed (${kind}); what it could not keep stays in memory for this page.`);
      }
      return fallback;
    }
  }
}
