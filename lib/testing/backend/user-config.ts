import { isAmount, isCount } from '../../shared/quota-keys';
import type { ReferenceUser, ReferenceUserPatch } from '../types';

const COUNT_FIELDS = ['freeRemaining', 'freeTotal'] as const;
const AMOUNT_FIELDS = ['creditsPerUse', 'creditsBalance'] as const;
const FLAG_FIELDS = ['blacklisted', 'isEnabled'] as const;

/**
 * Throws a `TypeError` when a user patch holds a value the wire format could
 * not carry, checked as the client checks a quota (the backend must never
 * answer a body a correct client would reject as a decode error, unless a
 * fault asks for it).
 */
export function assertValidPatch(patch: ReferenceUserPatch): void {
  for (const field of COUNT_FIELDS) {
    const value = patch[field];
    if (value !== undefined && !isCount(value)) {
      throw new TypeError(`${field} must be an integer >= 0`);
    }
  }
  for (const field of AMOUNT_FIELDS) {
    const value = patch[field];
    if (value !== undefined && !isAmount(value)) {
      throw new TypeError(`${field} must be a finite number >= 0`);
    }
  }
  for (const field of FLAG_FIELDS) {
    const value = patch[field];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`${field} must be a boolean`);
    }
  }
}

/**
 * Throws a `TypeError` when a user's configuration is incomplete or invalid.
 */
export function assertValidUser(user: ReferenceUser): void {
  if (typeof user.token !== 'string' || user.token.length === 0 || /\s/.test(user.token)) {
    throw new TypeError('token must be a non-empty string without whitespace');
  }
  for (const field of [...COUNT_FIELDS, ...AMOUNT_FIELDS]) {
    if (user[field] === undefined) throw new TypeError(`${field} is required`);
  }
  assertValidPatch(user);
}
