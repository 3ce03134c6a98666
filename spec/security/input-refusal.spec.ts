import { createClient } from '../../lib';
import { UserBackend } from '../helpers/client-fixture';

describe('baseUrl is refused at createClient', () => {
  it.each([
    ['credentials', 'https://user:pass@api.example.com'],
    ['a user only', 'https://user@api.example.com'],
    ['a query', 'https://api.example.com/v?x=1'],
    ['an empty query', 'https://api.example.com/?'],
    ['a fragment', 'https://api.example.com/#top'],
    ['an empty fragment', 'https://api.example.com/#'],
    ['the ftp scheme', 'ftp://api.example.com'],
    ['the file scheme', 'file:///etc/passwd'],
    ['the javascript scheme', 'javascript:alert(1)'],
    ['the data scheme', 'data:text/plain,hi'],
    ['a relative URL', '/api'],
    ['a protocol-relative URL', '//api.example.com'],
    ['an empty string', ''],
  ])('with %s', (_, baseUrl) => {
    const { fetch, requests } = new UserBackend();
    expect(() => createClient({ baseUrl, appKey: 'poster', fetch })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(requests).toHaveLength(0);
  });

  it.each([['http://127.0.0.1:8080'], ['https://api.example.com/gateway/'], ['HTTPS://API.EXAMPLE.COM']])(
    'accepts %s',
    (baseUrl) => {
      expect(() => createClient({ baseUrl, appKey: 'poster' }).billing.dispose()).not.toThrow();
    },
  );
});

describe('externalId is refused before any request', () => {
  it.each<[string, unknown]>([
    ['empty', ''],
    ['256 characters', 'x'.repeat(256)],
    ['128 emoji (256 UTF-16 units)', '🙂'.repeat(128)],
    ['a number', 42],
    ['null', null],
    ['an object', { id: 'x' }],
    ['an array', ['x']],
    ['a String object', new String('x')],
    ['a boolean', true],
  ])('when %s', async (_, externalId) => {
    const { fetch, requests } = new UserBackend();
    const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster', fetch });
    await expect(client.billing.consume({ externalId: externalId as string })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(requests).toHaveLength(0);
    expect(client.billing.getCachedUsage()).toBeNull();
    client.billing.dispose();
  });

  it('accepts exactly 255 characters and sends them unchanged', async () => {
    const { fetch, requests } = new UserBackend();
    const client = createClient({ baseUrl: 'https://api.example.com', appKey: 'poster', fetch });
    await expect(client.billing.consume({ externalId: 'é'.repeat(255) })).resolves.toMatchObject({ isCredit: false });
    expect(requests.map((request) => request.externalId)).toEqual(['é'.repeat(255)]);
    client.billing.dispose();
  });
});

describe('appKey', () => {
  it.each([
    ['a lone high surrogate', 'poster\uD800'],
    ['a lone low surrogate', '\uDC00poster'],
  ])('is refused at createClient with %s, which could not be URL-encoded', (_, appKey) => {
    expect(() => createClient({ baseUrl: 'https://api.example.com', appKey })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
  });

  it('accepts a surrogate pair', () => {
    expect(() =>
      createClient({ baseUrl: 'https://api.example.com', appKey: 'poster🙂' }).billing.dispose(),
    ).not.toThrow();
  });
});
