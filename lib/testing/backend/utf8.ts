// UTF-8 through TextEncoder / TextDecoder where they exist, by hand where not:
// Jest's `jsdom` environment has neither, and the in-process backend runs there.

/**
 * The UTF-8 bytes of a string, lone surrogates as U+FFFD (what `fetch` sends
 * for a string body).
 */
export function utf8Encode(text: string): Uint8Array {
  if (typeof TextEncoder === 'function') return new TextEncoder().encode(text);
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        code = 0xfffd;
      }
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      code = 0xfffd;
    }
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else {
      bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    }
  }
  return Uint8Array.from(bytes);
}

/**
 * Decodes UTF-8 strictly, as `new TextDecoder('utf-8', { fatal: true })`
 * does: throws a `TypeError` on an invalid, overlong, surrogate or truncated
 * sequence. A leading byte order mark is dropped.
 */
export function utf8Decode(bytes: Uint8Array): string {
  if (typeof TextDecoder === 'function') return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const units: number[] = [];
  let text = '';
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    const [length, min] = lead < 0x80 ? [1, 0] : lead < 0xe0 ? [2, 0x80] : lead < 0xf0 ? [3, 0x800] : [4, 0x10000];
    if ((lead >= 0x80 && lead < 0xc2) || lead > 0xf4 || i + length > bytes.length) throw invalid();
    let code = length === 1 ? lead : lead & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k] as number;
      if ((next & 0xc0) !== 0x80) throw invalid();
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw invalid();
    if (code < 0x10000) units.push(code);
    else units.push(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff));
    i += length;
    // In slices, so that a large body does not overflow the argument list.
    if (units.length >= 4096) text += String.fromCharCode(...units.splice(0));
  }
  return text + String.fromCharCode(...units);
}

function invalid(): TypeError {
  return new TypeError('The encoded data was not valid for encoding utf-8');
}
