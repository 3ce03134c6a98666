import type { StorageLike } from '../feature-types';

/**
 * A storage that never throws: the first failure of the given storage (Safari
 * private mode, a full quota, a blocked `localStorage`) switches it to memory
 * for the rest of the page, with one warning that names only the error class.
 */
export class SafeStorage {
  private memory: Map<string, string> | null = null;

  constructor(
    private readonly storage: StorageLike,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
  ) {}

  get(key: string): string | null {
    return this.attempt(
      () => this.storage.getItem(key),
      () => this.memory?.get(key) ?? null,
    );
  }

  set(key: string, value: string): void {
    this.attempt(
      () => this.storage.setItem(key, value),
      () => void this.memory?.set(key, value),
    );
  }

  remove(key: string): void {
    this.attempt(
      () => this.storage.removeItem(key),
      () => void this.memory?.delete(key),
    );
  }

  private attempt<T>(real: () => T, inMemory: () => T): T {
    if (this.memory === null) {
      try {
        return real();
      } catch (error) {
        this.memory = new Map();
        // The class only: a message could quote what was being stored.
        const kind = error instanceof Error ? error.name : typeof error;
        this.warn(
          `unified-billing: storage failed (${kind}); the free period and unanswered consumes are kept in memory for this page only.`,
        );
      }
    }
    return inMemory();
  }
}
