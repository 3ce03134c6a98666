// The id of a charged consume (its `external_id`) outside browsers: uuid's v4,
// which works on every runtime the package supports (Node 18 has no global
// `crypto`). The browser build uses random-id.browser.ts (scripts/build.mjs).
import { v4 } from 'uuid';

/**
 * A random (version 4) UUID.
 *
 * @example
 * ```ts
 * const externalId = randomId(); // '0b6a1f4e-...-4...'
 * ```
 */
export function randomId(): string {
  return v4();
}
