import { BillingError } from '../shared/errors';
import { isExternalId, MAX_EXTERNAL_ID_LENGTH } from '../shared/wire';

/**
 * The error for options a call cannot run with, else `null`: a signal that
 * cannot be listened to (refused before any request, since inside the store
 * it would throw too late, with the consume already under way), or, for a
 * consume, an `externalId` that is not a string of 1..255 characters.
 */
export function callOptionsError(options: unknown, call: 'consume' | 'getUsage'): BillingError | null {
  if (typeof options !== 'object' || options === null) return null;
  const { signal, externalId } = options as { signal?: Partial<AbortSignal>; externalId?: unknown };
  // Duck-typed, so a signal from another realm (an iframe) or a polyfill passes.
  const listens =
    typeof signal?.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function';
  if (signal !== undefined && !listens) {
    return new BillingError(
      'invalid_argument',
      __DEV__ ? `${call}: signal must be an AbortSignal` : `invalid ${call} signal`,
      typeof externalId === 'string' ? { externalId } : {},
    );
  }
  if (call === 'getUsage' || externalId === undefined || isExternalId(externalId)) return null;
  return new BillingError(
    'invalid_argument',
    __DEV__
      ? typeof externalId === 'string'
        ? `externalId must have 1 to ${MAX_EXTERNAL_ID_LENGTH} characters, got ${externalId.length}`
        : `externalId must be a string, got ${typeof externalId}`
      : 'invalid externalId',
  );
}
