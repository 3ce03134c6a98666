import { catchError, from, map, mergeMap, of, type OperatorFunction } from 'rxjs';
import type { ConsumeOutcome } from './engine/engine-actions';
import { BillingError } from './errors';
import type { BillingModule, ConsumeOptions } from './types';

export type { ConsumeOutcome };

/**
 * Pipes UI events into consumes. Each event is one `consume()`; the client
 * processes them one at a time, so a burst of clicks is one charge and the
 * rest fall in the free period. Failures arrive as `{ ok: false, error }`
 * values and never end the stream.
 *
 * @example
 * ```ts
 * fromEvent(exportButton, 'click')
 *   .pipe(consumeWith(client.billing))
 *   .subscribe((outcome) => (outcome.ok ? startExport() : showError(outcome.error)));
 * ```
 */
export function consumeWith<T>(
  billing: Pick<BillingModule, 'consume'>,
  optionsFor?: (event: T) => ConsumeOptions | undefined,
): OperatorFunction<T, ConsumeOutcome> {
  return (source) =>
    source.pipe(
      mergeMap((event) =>
        from(billing.consume(optionsFor?.(event))).pipe(
          map((result): ConsumeOutcome => ({ ok: true, result })),
          catchError((error: unknown) => {
            const known = error instanceof BillingError ? error : new BillingError('network', String(error));
            return of<ConsumeOutcome>({ ok: false, error: known });
          }),
        ),
      ),
    );
}
