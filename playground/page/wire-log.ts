import type { FetchLike } from '../../lib';

/** One request the page's client made. */
export interface WireEntry {
  readonly method: string;
  readonly path: string;
  status?: number;
}

/**
 * Wraps `window.fetch` so the page can show, under each consume, the requests
 * it caused (none at all inside a free period).
 */
export class WireLog {
  private readonly entries: WireEntry[] = [];

  readonly fetch: FetchLike = async (input, init) => {
    const url = new URL(input, window.location.href);
    const entry: WireEntry = { method: init?.method ?? 'GET', path: url.pathname };
    this.entries.push(entry);
    const response = await window.fetch(input, init);
    entry.status = response.status;
    return response;
  };

  /** A position to read from later with {@link since}. */
  mark(): number {
    return this.entries.length;
  }

  since(mark: number): readonly WireEntry[] {
    return this.entries.slice(mark);
  }
}

/** `POST /ai/v5/service/free_trial → 200`, one per line. */
export function describeWire(entries: readonly WireEntry[]): string {
  if (entries.length === 0) return 'no request';
  return entries.map((e) => `${e.method} ${e.path} → ${e.status ?? 'no answer'}`).join('\n');
}
