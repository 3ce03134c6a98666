// The browser build's consume id, without the uuid package. `randomUUID`
// exists only in secure contexts (https, localhost), so a page served over
// plain http on a LAN falls back to `getRandomValues`, which every browser
// with `fetch` has, in any context. Never Math.random: the id is what keeps a
// retried consume from charging twice, so it must not collide.

/**
 * A random (version 4) UUID: `crypto.randomUUID()`, or one made from
 * `crypto.getRandomValues()` outside secure contexts.
 */
export function randomId(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // RFC 9562: version 4 in the high nibble of byte 6, variant 10xx in byte 8.
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return Array.from(bytes, (byte) => (byte + 256).toString(16).slice(1))
    .join('')
    .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}
