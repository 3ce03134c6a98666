// The id of a charged consume (its `external_id`), made only when a consume sends a POST without an
// `externalId` of its own. `randomUUID` exists only in secure contexts (https, localhost) and Node 19+, so a
// page served over plain http falls back to `getRandomValues`, which every browser has in any context; React
// Native has neither until react-native-get-random-values is imported. Never Math.random: the id is what
// keeps a retried consume from charging twice, so it must not collide.
import { missingGlobal } from '../shared/errors';

/**
 * A random (version 4) UUID: `crypto.randomUUID()`, or one made from
 * `crypto.getRandomValues()`. Throws a `BillingError` (`invalid_argument`)
 * naming the polyfill where the runtime has neither.
 *
 * @example
 * ```ts
 * const externalId = randomId(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 * ```
 */
export function randomId(): string {
  const crypto = (globalThis as { crypto?: Partial<Crypto> }).crypto;
  if (crypto?.randomUUID) return crypto.randomUUID();
  if (!crypto?.getRandomValues) missingGlobal('crypto');
  // A random nibble for each x, 8 to b for y (RFC 9562: version 4, variant 10xx), one byte each.
  const bytes = crypto.getRandomValues(new Uint8Array(31));
  let i = 0;
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) =>
    (c === 'x' ? bytes[i++]! & 15 : (bytes[i++]! & 3) | 8).toString(16),
  );
}

/**
 * A page instance's id (tabSync's and reloadSafe's locks and storage entries
 * name it): about 52 random bits from `Math.random`, enough to tell apart
 * the pages open at once and, unlike a consume's id, never what keeps a
 * charge from happening twice. Never throws, and needs no `crypto`.
 *
 * @example
 * ```ts
 * const page = newPageId(); // '4fzyo82mvyr'
 * ```
 */
export const newPageId = (): string => Math.random().toString(36).slice(2);
