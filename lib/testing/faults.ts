import type { Fault } from './types';

/**
 * Throws a `TypeError` for a fault the backend could not carry out.
 */
export function assertValidFault(fault: Fault): void {
  switch (fault.kind) {
    case 'drop':
    case 'dropAfterApply':
    case 'stall':
      return;
    case 'status':
      if (!isStatus(fault.status, 400)) throw new TypeError('status fault needs an HTTP status in 400..599');
      if (fault.retryAfter !== undefined && !/^[\t\x20-\x7e]*$/.test(fault.retryAfter)) {
        throw new TypeError('retryAfter must be a printable ASCII header value');
      }
      return;
    case 'delay':
      if (!Number.isFinite(fault.ms) || fault.ms < 0) throw new TypeError('delay fault needs ms >= 0');
      return;
    case 'malformed':
      if (typeof fault.body !== 'string') throw new TypeError('malformed fault needs a string body');
      if (fault.status !== undefined && !isStatus(fault.status, 200)) {
        throw new TypeError('malformed fault status must be in 200..599');
      }
      return;
    default:
      throw new TypeError(`unknown fault kind ${String((fault as { kind: unknown }).kind)}`);
  }
}

function isStatus(value: number, min: number): boolean {
  return Number.isInteger(value) && value >= min && value <= 599;
}

/**
 * Faults waiting for the next requests, per path (without query), first in
 * first out: two `add` calls on one path queue one after the other.
 */
export class FaultQueue {
  private readonly byPath = new Map<string, Fault[]>();

  add(path: string, n: number, fault: Fault): void {
    if (typeof path !== 'string' || !path.startsWith('/') || path.includes('?')) {
      throw new TypeError('path must start with / and carry no query');
    }
    if (!Number.isInteger(n) || n < 1) throw new TypeError('n must be an integer >= 1');
    assertValidFault(fault);
    const queue = this.byPath.get(path) ?? [];
    // Copies, so that a caller mutating its object later changes nothing.
    for (let i = 0; i < n; i += 1) queue.push({ ...fault });
    this.byPath.set(path, queue);
  }

  take(path: string): Fault | undefined {
    const queue = this.byPath.get(path);
    const fault = queue?.shift();
    if (queue !== undefined && queue.length === 0) this.byPath.delete(path);
    return fault;
  }

  pending(path: string): number {
    return this.byPath.get(path)?.length ?? 0;
  }

  clear(): void {
    this.byPath.clear();
  }
}
