import { BillingError } from '../errors';

// Duck-typed, so a signal from another realm (an iframe) or a polyfill passes.
function isSignal(value: unknown): boolean {
  const candidate = value as Partial<AbortSignal> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.aborted === 'boolean' &&
    typeof candidate.addEventListener === 'function' &&
    typeof candidate.removeEventListener === 'function'
  );
}

/**
 * The signal of a call's options (`null` is no options), or the error for a
 * signal that cannot be listened to: refused before any request, since inside
 * the engine it would throw too late, with the consume already under way.
 */
export function signalOf(
  options: { readonly signal?: AbortSignal; readonly externalId?: unknown } | null | undefined,
  call: string,
): AbortSignal | undefined | BillingError {
  const signal = typeof options === 'object' && options !== null ? options.signal : undefined;
  if (signal === undefined || isSignal(signal)) return signal;
  const externalId = (options as { externalId?: unknown }).externalId;
  const details = typeof externalId === 'string' ? { externalId } : {};
  return new BillingError('invalid_argument', `${call}: signal must be an AbortSignal`, details);
}
