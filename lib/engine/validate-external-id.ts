import { BillingError } from '../errors';
import { MAX_EXTERNAL_ID_LENGTH } from '../wire';

/** `null` when acceptable (absent, or a string of 1..255 characters), else the error to reject with. */
export function validateExternalId(externalId: unknown): BillingError | null {
  if (externalId === undefined) return null;
  if (typeof externalId !== 'string') {
    return new BillingError('invalid_argument', `externalId must be a string, got ${typeof externalId}`);
  }
  if (externalId.length === 0 || externalId.length > MAX_EXTERNAL_ID_LENGTH) {
    return new BillingError(
      'invalid_argument',
      `externalId must have 1 to ${MAX_EXTERNAL_ID_LENGTH} characters, got ${externalId.length}`,
    );
  }
  return null;
}
