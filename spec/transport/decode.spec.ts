import { decodeBalance, decodeConsume, decodeEnvelope, decodeFreeCount } from '../../lib/transport/decode';
import { byMode } from '../helpers/mode';

const dataOf = (data: unknown) => decodeEnvelope(JSON.stringify({ code: 0, message: '', data })).data;

describe('decodeEnvelope()', () => {
  it.each([
    ['an empty body', '', 'empty body'],
    ['HTML', '<html></html>', 'not JSON'],
    ['truncated JSON', '{"code":0,"mess', 'not JSON'],
    ['an array', '[]', 'not an object'],
    ['a string code', '{"code":"0","message":"","data":null}', 'code'],
    ['a fractional code', '{"code":0.5,"message":"","data":null}', 'code'],
    ['no message', '{"code":0,"data":null}', 'message'],
    ['array data', '{"code":0,"message":"","data":[]}', 'data'],
  ])('rejects %s with decode', (_, text, what) => {
    expect(() => decodeEnvelope(text)).toThrow(
      expect.objectContaining({ code: 'decode', message: expect.stringContaining(byMode(what, '')) }),
    );
  });

  it('accepts null data', () => {
    expect(decodeEnvelope('{"code":20102,"message":"x","data":null}')).toEqual({
      code: 20102,
      message: 'x',
      data: null,
    });
  });
});

describe('data decoders', () => {
  const count = { is_enabled: true, free_remaining: 2, free_total: 5, credits_per_use: 1.5 };
  it('decodes the free count', () => {
    expect(decodeFreeCount(dataOf(count))).toEqual({
      isEnabled: true,
      freeRemaining: 2,
      freeTotal: 5,
      creditsPerUse: 1.5,
    });
  });

  it.each([
    ['a negative count', { ...count, free_remaining: -1 }],
    ['a fractional count', { ...count, free_total: 2.5 }],
    ['a string flag', { ...count, is_enabled: 'true' }],
    ['a missing price', { is_enabled: true, free_remaining: 2, free_total: 5 }],
  ])('rejects %s', (_, data) => {
    expect(() => decodeFreeCount(dataOf(data))).toThrow(expect.objectContaining({ code: 'decode' }));
  });

  // Every numeric field of every answer, each with every value it must refuse: a negative
  // (whole and fractional), a fraction where a count is due, a string, null, absent, and a
  // number too large for JSON (Infinity once parsed).
  const valid = {
    count: { is_enabled: true, free_remaining: 2, free_total: 5, credits_per_use: 1.5 },
    balance: { balance: 10 },
    consume: { free_remaining: 1, is_credit: true },
  } as const;
  type Answer = keyof typeof valid;
  const decoders: Record<Answer, (text: string) => unknown> = {
    count: (text) => decodeFreeCount(decodeEnvelope(text).data),
    balance: (text) => decodeBalance(decodeEnvelope(text).data).balance,
    consume: (text) => decodeConsume(decodeEnvelope(text).data),
  };
  const numeric: ReadonlyArray<[Answer, string, 'count' | 'amount']> = [
    ['count', 'free_remaining', 'count'],
    ['count', 'free_total', 'count'],
    ['count', 'credits_per_use', 'amount'],
    ['balance', 'balance', 'amount'],
    ['consume', 'free_remaining', 'count'],
  ];
  const bad = (kind: 'count' | 'amount') => [
    ['-1', '-1'],
    ['-0.5', '-0.5'],
    ['-1e400 (-Infinity)', '-1e400'],
    ['1e400 (Infinity)', '1e400'],
    ['"5"', '"5"'],
    ['null', 'null'],
    ['true', 'true'],
    ...(kind === 'count'
      ? [
          ['2.5', '2.5'],
          ['2^53', '9007199254740992'],
        ]
      : []),
  ];
  const rows = numeric.flatMap(([answer, field, kind]) =>
    [...bad(kind), ['absent', undefined] as const].map(([shown, raw]) => [answer, field, shown, raw] as const),
  );

  it.each(rows)('rejects a %s answer whose %s is %s, naming the field', (answer, field, _shown, raw) => {
    const body = JSON.stringify({ code: 0, message: '', data: { ...valid[answer], [field]: 0 } });
    const text =
      raw === undefined
        ? body.replace(`"${field}":0,`, '').replace(`,"${field}":0`, '').replace(`"${field}":0`, '')
        : body.replace(`"${field}":0`, `"${field}":${raw}`);
    expect(text).not.toBe(body);
    expect(() => decoders[answer](text)).toThrow(
      expect.objectContaining({ code: 'decode', message: expect.stringContaining(byMode(field, '')) }),
    );
  });

  it.each(numeric)("accepts 0 as the %s answer's %s", (answer, field) => {
    const text = JSON.stringify({ code: 0, message: '', data: { ...valid[answer], [field]: 0 } });
    const decoded = decoders[answer](text);
    const key = field.replace(/_./g, (m) => m.charAt(1).toUpperCase());
    expect(answer === 'balance' ? decoded : (decoded as Record<string, unknown>)[key]).toBe(0);
  });

  it('rejects a price that JSON.parse turns into Infinity', () => {
    const text =
      '{"code":0,"message":"","data":{"is_enabled":true,"free_remaining":2,"free_total":5,"credits_per_use":1e400}}';
    expect(() => decodeFreeCount(decodeEnvelope(text).data)).toThrow(expect.objectContaining({ code: 'decode' }));
  });

  it('rejects null data on success', () => {
    expect(() => decodeBalance(dataOf(null))).toThrow(expect.objectContaining({ code: 'decode' }));
  });

  it('reads own fields only: __proto__ and constructor keys pollute nothing', () => {
    const text = '{"code":0,"message":"","data":{"__proto__":{"balance":5,"polluted":true},"constructor":{"x":1}}}';
    expect(() => decodeBalance(decodeEnvelope(text).data)).toThrow(expect.objectContaining({ code: 'decode' }));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('strips unknown fields from a consume answer', () => {
    expect(decodeConsume(dataOf({ free_remaining: 1, is_credit: false, extra: 'x' }))).toEqual({
      freeRemaining: 1,
      isCredit: false,
    });
  });
});
