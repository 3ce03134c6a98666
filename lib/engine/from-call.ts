import { Observable } from 'rxjs';
import type { CallOptions } from '../transport/billing-api';

/**
 * Temporary bridge (h-transport): the api is promise-based (seam S1) while
 * this engine still subscribes. Unsubscribing before the answer aborts the
 * request. The engine rewrite (h-engine) drops this file.
 */
export function fromCall<T>(call: (options: CallOptions) => Promise<T>, onSend?: () => void): Observable<T> {
  return new Observable<T>((subscriber) => {
    let controller: AbortController | undefined = new AbortController();
    const settle = () => {
      controller = undefined;
    };
    call({ signal: controller.signal, onSend }).then(
      (value) => {
        settle();
        subscriber.next(value);
        subscriber.complete();
      },
      (error: unknown) => {
        settle();
        subscriber.error(error);
      },
    );
    return () => controller?.abort();
  });
}
