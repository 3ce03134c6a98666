import { catchError, defer, map, mergeMap, of, type OperatorFunction } from 'rxjs';
import { BillingError, isBillingError } from '../shared/errors';
import type { BillingConsumeResult, ConsumeOptions, ConsumeOutcome } from '../shared/types';

/**
 * Pipes UI events into consumes. Each event is one `consume()`; the client
 * processes them one at a time, so a burst of clicks is one charge and the
 * rest fall in the free period. Failures arrive as `{ ok: false, error }`
 * values and never end the stream: a throwing `optionsFor` is an
 * `invalid_argument` failure for its event, and an error made by another copy
 * of the library (ESM and CJS builds in one app) keeps its code.
 *
 * @example
 * ```ts
 * fromEvent(exportButton, 'click')
 *   .pipe(consumeWith(client.billing))
 *   .subscribe((outcome) => (outcome.ok ? startExport() : showError(outcome.error)));
 * ```
 */
export function consumeWith<T>(
  // `billing.consume` by its shape: rx/ sits beside client/ under the barrel and imports only shared/.
  billing: { consume(options?: ConsumeOptions): Promise<BillingConsumeResult> },
  optionsFor?: (event: T) => ConsumeOptions | undefined,
): OperatorFunction<T, ConsumeOutcome> {
  return mergeMap((event) =>
    defer(() => {
      let options: ConsumeOptions | undefined;
      try {
        options = optionsFor?.(event);
      } catch (thrown) {
        const kind = thrown instanceof Error ? thrown.name : typeof thrown;
        // The thrown value is the app's own; it stays reachable as `cause` for debugging.
        const message = `consumeWith: optionsFor threw (${kind}); nothing was consumed`;
        throw new BillingError('invalid_argument', message, { cause: thrown });
      }
      return billing.consume(options);
    }).pipe(
      map((result): ConsumeOutcome => ({ ok: true, result })),
      catchError((error: unknown) => {
        const known = isBillingError(error) ? error : new BillingError('network', String(error));
        return of<ConsumeOutcome>({ ok: false, error: known });
      }),
    ),
  );
}
