// The id of a charged consume (its `external_id`) outside browsers: the
// runtime's `crypto.randomUUID` where there is one (Node 19+, Deno, Bun; much
// faster), else uuid's v4, which works on every runtime the package supports
// (Node 18 has no global `crypto`). The browser build uses
// random-id.browser.ts (scripts/build.mjs).
import { v4 } from 'uuid';

const native = (globalThis as { crypto?: Partial<Crypto> }).crypto;

/** A random (version 4) UUID. */
export const randomId: () => string =
  typeof native?.randomUUID === 'function' ? () => (native as Crypto).randomUUID() : () => v4();
