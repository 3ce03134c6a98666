import { unlessThrows } from '../../shared/errors';
import type { StorageLike } from '../../shared/feature-types';

/**
 * A storage that never throws (Safari private mode, a full quota, a blocked
 * `localStorage`), with one warning that names only the error class. A write
 * that fails removes the key instead, so the storage never holds state older
 * than what a page last tried to write; nothing is kept aside in memory, since
 * another page may change a shared key meanwhile (the store keeps the page's
 * own state). What is lost is a missed notification or a shorter free period,
 * never a charge after "failed".
 */
export class SafeStorage {
  private warned = false;

  constructor(private readonly storage: StorageLike) {}

  get(key: string): string | null {
    return this.attempt(() => this.storage.getItem(key), null);
  }

  set(key: string, value: string): void {
    if (!this.attempt(() => (this.storage.setItem(key, value), true), false)) this.remove(key);
  }

  remove(key: string): void {
    this.attempt(() => this.storage.removeItem(key), undefined);
  }

  /** The JSON value at `key`, or `fallback` where there is none or it does not parse. */
  readJson(key: string, fallback: object): unknown {
    return unlessThrows(() => JSON.parse(this.get(key) ?? 'null')) ?? fallback;
  }

  /** Writes `value` as JSON at `key`, or removes the key where it holds nothing (an empty array or object). */
  writeJson(key: string, value: object): void {
    if (Object.keys(value).length === 0) this.remove(key);
    else this.set(key, JSON.stringify(value));
  }

  private attempt<T>(real: () => T, fallback: T): T {
    try {
      return real();
    } catch (error) {
      if (!this.warned) {
        this.warned = true;
        // The class only: a message could quote what was being stored.
        const kind = error instanceof Error ? error.name : typeof error;
        console.warn(`unified-billing: storage failed (${kind}); what it could not keep is lost across reloads.`);
      }
      return fallback;
    }
  }
}
