import { finalize, share, type Observable } from 'rxjs';

/**
 * Callers that arrive while a request is in flight join it instead of
 * sending another; `fresh` forces a new request (which later callers join).
 */
export function sharedInFlight<T>(start: () => Observable<T>): (fresh?: boolean) => Observable<T> {
  let current: Observable<T> | null = null;
  return (fresh = false) => {
    if (current === null || fresh) {
      const run: Observable<T> = start().pipe(
        finalize(() => {
          if (current === run) current = null;
        }),
        share(),
      );
      current = run;
    }
    return current;
  };
}
