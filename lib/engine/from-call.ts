import { Observable } from 'rxjs';
import type { CallOptions } from '../transport/billing-api';

// What the transport reads of a signal. Node makes a real AbortSignal in
// about 13 µs (it is transferable), a cost a bridge should not add per request.
class Cancel {
  aborted = false;
  private readonly listeners: Array<() => void> = [];
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }
  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }
  abort(): void {
    this.aborted = true;
    this.listeners.splice(0).forEach((listener) => listener());
  }
}

/**
 * Temporary bridge (h-transport): the api is promise-based (seam S1) while
 * this engine still subscribes. Unsubscribing before the answer aborts the
 * request. The engine rewrite (h-engine) drops this file.
 */
export function fromCall<T>(call: (options: CallOptions) => Promise<T>, onSend?: () => void): Observable<T> {
  return new Observable<T>((subscriber) => {
    const cancel = new Cancel();
    let settled = false;
    call({ signal: cancel as unknown as AbortSignal, onSend }).then(
      (value) => {
        settled = true;
        subscriber.next(value);
        subscriber.complete();
      },
      (error: unknown) => {
        settled = true;
        subscriber.error(error);
      },
    );
    return () => {
      if (!settled) cancel.abort();
    };
  });
}
