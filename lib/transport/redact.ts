import { unlessThrows } from '../shared/errors';
import type { HeaderRecord } from './headers';

// A whole value or a token after its scheme is hidden from 4 characters on; a
// loose part of a value only from 8, so that words such as `Bearer`, `theme`
// or `dark` stay readable while ids and tokens do not; an encoded copy from 6.
const SCHEME = /^\s*([A-Za-z][\w.+-]*)\s+(\S.*?)\s*$/;
const SEPARATORS = /[\s,;="]+/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

// The reversible copies of a piece a backend or proxy may echo: URL-encoded
// (upper or lower hex, `+` for a space), and base64 or base64url wherever the
// piece starts in the encoded text (the characters that encode only its own
// bytes, for each of the three alignments), so a token inside an encoded
// `user:token` is caught too.
function encodingsOf(piece: string): string[] {
  const url = encodeURIComponent(piece);
  const out = [url, url.replace(/%../g, (hex) => hex.toLowerCase()), url.replace(/%20/g, '+')];
  // btoa never throws here: every piece is Latin-1, a part of a header value (headers.ts refuses any other
  // character) or what atob gave.
  for (let shift = 0; shift < 3; shift++) {
    const core = btoa('\0'.repeat(shift) + piece).slice(
      Math.ceil((4 * shift) / 3),
      Math.floor((4 * (shift + piece.length)) / 3),
    );
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/**
 * Every credential-like piece of the headers, longest first: each value, the
 * token after its scheme, Basic credentials decoded, each cookie- or
 * list-style part, and each of those URL-encoded, base64 and base64url.
 * Worked out on a failure only, so not cached.
 */
function secretsOf(headers: HeaderRecord): string[] {
  const found = new Set<string>();
  const add = (piece: string, min = 4) => piece.length >= min && found.add(piece);
  for (const value of Object.values(headers)) {
    add(value);
    add(value.trim());
    const [, scheme = '', token = ''] = SCHEME.exec(value) ?? [];
    add(token);
    // Undefined when the token is not base64: nothing more to hide.
    const decoded = /^basic$/i.test(scheme) ? unlessThrows(() => atob(token)) : undefined;
    if (decoded !== undefined) {
      add(decoded);
      add(decoded.slice(decoded.indexOf(':') + 1));
    }
    for (const part of value.split(SEPARATORS)) add(part, 8);
  }
  for (const piece of [...found]) for (const encoded of encodingsOf(piece)) add(encoded, 6);
  return [...found].sort((a, b) => b.length - a.length);
}

/** Replaces every credential-like piece of the headers a text quotes (see secretsOf) with `[redacted]`. */
export const redact = (text: string, headers: HeaderRecord): string =>
  secretsOf(headers).reduce((redacted, secret) => redacted.split(secret).join('[redacted]'), text);

/** Redacted, on one line, and at most `max` characters: safe to put in an error message. */
export function quotable(text: string, headers: HeaderRecord, max: number): string {
  // Control characters could forge lines in a log that prints the message.
  const line = redact(text, headers).replace(CONTROL, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
