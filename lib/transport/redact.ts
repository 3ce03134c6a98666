type HeaderRecord = Readonly<Record<string, string>>;

/** What replaces a credential in any text the client shows. */
export const REDACTED = '[redacted]';

// A whole value or a token after its scheme is hidden from 4 characters on (as
// before); a loose part of a value only from 8, so that words such as `Bearer`,
// `theme` or `dark` stay readable while ids and tokens do not.
const MIN_SECRET = 4;
const MIN_PART = 8;
// An encoded copy shorter than this would hide ordinary words.
const MIN_ENCODED = 6;
const SCHEME = /^\s*([A-Za-z][\w.+-]*)\s+(\S.*?)\s*$/;
const SEPARATORS = /[\s,;="]+/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

function decodeBasic(token: string): string[] {
  if (typeof atob !== 'function' || !/^[A-Za-z0-9+/]+=*$/.test(token)) return [];
  try {
    const decoded = atob(token);
    const colon = decoded.indexOf(':');
    return colon < 0 ? [decoded] : [decoded, decoded.slice(colon + 1)];
  } catch {
    return [];
  }
}

/** Every credential-like piece of one header value, longest first. */
export function secretsOf(value: string): string[] {
  const found = new Set<string>();
  const add = (piece: string, min: number) => {
    if (piece.length >= min) found.add(piece);
  };
  add(value, MIN_SECRET);
  add(value.trim(), MIN_SECRET);
  const scheme = SCHEME.exec(value);
  if (scheme !== null) {
    const [, name = '', token = ''] = scheme;
    add(token, MIN_SECRET);
    if (name.toLowerCase() === 'basic') decodeBasic(token).forEach((piece) => add(piece, MIN_SECRET));
  }
  for (const part of value.split(SEPARATORS)) add(part, MIN_PART);
  for (const piece of [...found]) encodingsOf(piece).forEach((encoded) => add(encoded, MIN_ENCODED));
  return [...found].sort((a, b) => b.length - a.length);
}

// The reversible copies of a piece a backend or proxy may echo: URL-encoded
// (upper or lower hex, `+` for a space), and base64 or base64url wherever the
// piece starts in the encoded text (the characters that encode only its own
// bytes, for each of the three alignments), so a token inside an encoded
// `user:token` is caught too.
function encodingsOf(piece: string): string[] {
  const url = encodeURIComponent(piece);
  const out = [url, url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()), url.replace(/%20/g, '+')];
  if (typeof btoa !== 'function') return out;
  for (let shift = 0; shift < 3; shift++) {
    let encoded: string;
    try {
      encoded = btoa('\0'.repeat(shift) + piece);
    } catch {
      return out; // Not Latin-1: no header value is (see headers.ts).
    }
    const core = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + piece.length)) / 6));
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

// Static headers are the same object on every request: their pieces are worked out once.
const cache = new WeakMap<HeaderRecord, string[]>();

function secretsOfAll(headers: HeaderRecord): string[] {
  let secrets = cache.get(headers);
  if (secrets === undefined) {
    const all = new Set(Object.values(headers).flatMap(secretsOf));
    secrets = [...all].sort((a, b) => b.length - a.length);
    cache.set(headers, secrets);
  }
  return secrets;
}

/**
 * Replaces every header value a text quotes, and every credential-like part
 * of one (the token after its scheme, Basic credentials decoded, each
 * cookie- or list-style part), each also URL-encoded, base64 and base64url,
 * so errors never carry credentials.
 */
export function redact(text: string, headers: HeaderRecord): string {
  let out = text;
  for (const secret of secretsOfAll(headers)) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Redacted, on one line, and at most `max` characters: safe to put in an error message. */
export function quotable(text: string, headers: HeaderRecord, max: number): string {
  // Control characters could forge lines in a log that prints the message.
  const line = redact(text, headers).replace(CONTROL, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
