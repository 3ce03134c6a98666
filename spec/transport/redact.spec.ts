import { quotable, redact } from '../../lib/transport/redact';

// Issue 27, mutants of lib/transport/redact.ts that survived error-messages.spec.ts and
// spec/security/encoded-credentials.spec.ts: what an error message may quote of a backend's text
// when the request carried credentials. Each case is a text a backend or proxy might echo, and
// the pieces of the credential that must not be readable in what the user sees.

const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
const b64url = (text: string) => Buffer.from(text, 'latin1').toString('base64url');

// The runs of 6 characters of `secret` (or all of a shorter one) still readable in `shown`.
function leaked(shown: string, secret: string): string[] {
  const size = Math.min(6, secret.length);
  const runs: string[] = [];
  for (let i = 0; i + size <= secret.length; i++) {
    if (shown.includes(secret.slice(i, i + size))) runs.push(secret.slice(i, i + size));
  }
  return runs;
}

describe('redact: no piece of a credential survives in a quoted text', () => {
  it.each([
    [
      'a short bearer token (under 8 characters, found only after its scheme)',
      { Authorization: 'Bearer a1b2c' },
      'token a1b2c expired',
      'a1b2c',
    ],
    ['a token after two spaces', { Authorization: 'Bearer  a1b2c' }, 'token a1b2c expired', 'a1b2c'],
    ['a header value with no scheme', { 'X-Api-Key': 'k9x7q3z5w1' }, 'key k9x7q3z5w1 unknown', 'k9x7q3z5w1'],
    ['a value padded with spaces, quoted trimmed', { 'X-Api-Key': ' k9x q7z ' }, 'key "k9x q7z" unknown', 'k9x q7z'],
    [
      'a cookie part of exactly 8 characters',
      { Cookie: 'theme=dark; sid=k9x7q3z5' },
      'session k9x7q3z5 gone',
      'k9x7q3z5',
    ],
    [
      'the password of Basic credentials',
      { Authorization: `Basic ${b64('ann:pw-4471')}` },
      'wrong password pw-4471',
      'pw-4471',
    ],
    [
      'a short password of Basic credentials',
      { Authorization: `Basic ${b64('ann:pw12')}` },
      'wrong password pw12',
      'pw12',
    ],
    [
      'a token with spaces, URL-encoded with +',
      { Authorization: 'Bearer k9 x7 q3 z5' },
      'got k9+x7+q3+z5',
      'k9+x7+q3+z5',
    ],
    [
      'a token in base64url (its base64 has + and /)',
      { Authorization: 'Bearer ab1~~~???xyz' },
      `got ${b64url('ab1~~~???xyz')}`,
      b64url('ab1~~~???xyz'),
    ],
    [
      'a token in base64 one byte into the text',
      { Authorization: 'Bearer k9x7q3z5w1' },
      `got ${b64('x' + 'k9x7q3z5w1')}`,
      b64('x' + 'k9x7q3z5w1').slice(2, 12),
    ],
    [
      'a token in base64 two bytes into the text',
      { Authorization: 'Bearer k9x7q3z5w1' },
      `got ${b64('xy' + 'k9x7q3z5w1')}`,
      b64('xy' + 'k9x7q3z5w1').slice(3, 12),
    ],
  ])('%s', (_, headers: Record<string, string>, text, secret) => {
    const shown = redact(text, headers);
    expect(shown).toContain('[redacted]');
    expect(leaked(shown, secret)).toEqual([]);
  });

  it('the longest piece is hidden whole: a URL-encoded header value leaves no scheme behind', () => {
    expect(redact('Bearer%20k9x7q3z5w1', { Authorization: 'Bearer k9x7q3z5w1' })).toBe('[redacted]');
  });

  it('words of a cookie or list shorter than 8 characters stay readable', () => {
    expect(redact('theme dark, sid k9x7q3z5w1', { Cookie: 'theme=dark; sid=k9x7q3z5w1' })).toBe(
      'theme dark, sid [redacted]',
    );
  });
});

describe('quotable: one line, at most max characters', () => {
  it.each([
    ['control characters become one space each run', 'a\r\nb\tc', 100, 'a b c'],
    ['leading and trailing blanks and line breaks go', '\n  not found  \r\n', 100, 'not found'],
    ['a longer text is cut with an ellipsis', 'abcdef', 4, 'abc…'],
    ['a text of exactly max characters is kept whole', 'abcd', 4, 'abcd'],
  ])('%s', (_, text, max, shown) => {
    expect(quotable(text, {}, max)).toBe(shown);
  });
});
