import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import { BillingError } from '../errors';

/** Emits once when the signal aborts (at once if it already has); never without a signal. */
export function aborted$(signal: AbortSignal | undefined): Observable<void> {
  return new Observable<void>((subscriber) => {
    if (signal === undefined) return undefined;
    const onAbort = () => subscriber.next();
    if (signal.aborted) {
      onAbort();
      return undefined;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  });
}

/**
 * Fails the source with `error()` as soon as `trigger$` emits, unsubscribing
 * it (which cancels its work). Unlike `race`, the source may emit any number
 * of values first; a trigger that fires at once means the source never starts.
 */
export function failWhen<T>(trigger$: Observable<unknown>, error: () => BillingError): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const trigger = trigger$.subscribe(() => subscriber.error(error()));
      if (!subscriber.closed) subscriber.add(source.subscribe(subscriber));
      return trigger;
    });
}
