// The browser build's consume id, without the uuid package. `randomUUID`
// exists only in secure contexts (https, localhost), so a page served over
// plain http on a LAN falls back to `getRandomValues`, which every browser
// with `fetch` has, in any context. Never Math.random: the id is what keeps a
// retried consume from charging twice, so it must not collide.

function fromRandomBytes(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  // RFC 9562: version 4 in the high nibble of byte 6, variant 10xx in byte 8.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A random (version 4) UUID: `crypto.randomUUID()`, or one made from
 * `crypto.getRandomValues()` outside secure contexts.
 *
 * @example
 * ```ts
 * const externalId = randomId(); // '0b6a1f4e-...-4...'
 * ```
 */
export function randomId(): string {
  const crypto = globalThis.crypto;
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : fromRandomBytes();
}
