import { BillingError, unlessThrows } from '../shared/errors';
import { isAmount, isCount, isFlag } from '../shared/quota-keys';
import type { BillingConsumeResult, QuotaFields } from '../shared/types';
import type { Envelope } from '../shared/wire';

/** `data` of the free-quota GET, decoded: the quota but its balance, which the balance GET answers. */
export type FreeCount = Omit<QuotaFields, 'creditsBalance'>;

/** `data` of a charged POST, decoded. */
export type ConsumeData = Pick<BillingConsumeResult, 'freeRemaining' | 'isCredit'>;

type Data = Readonly<Record<string, unknown>>;

// A decode error's message is only the reason: the request names the call and what came back
// (failure.ts), which a production build does not quote, so there it is empty.

/** A plain object's shape: an object, not null and not an array (the envelope, its `data`, the headers option). */
export const isRecord = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Own properties only: a body's `__proto__` or `constructor` key is never read as a field.
const ownField = (data: Data, name: string): unknown =>
  Object.prototype.hasOwnProperty.call(data, name) ? data[name] : undefined;

// The kinds of field: a check and what it says when a value fails it (in development only).
type FieldKind = readonly [(value: unknown) => boolean, string];
// Counts, amounts and flags are checked as every quota is (shared/quota-keys.ts).
const COUNT: FieldKind = [isCount, __DEV__ ? 'an integer >= 0' : ''];
const AMOUNT: FieldKind = [isAmount, __DEV__ ? 'a number >= 0' : ''];
const FLAG: FieldKind = [isFlag, __DEV__ ? 'a boolean' : ''];

/**
 * A decoder from a table of wire names (`free_remaining`) and their kinds.
 * Reads an object (`what` names it when it is not one) and makes a new one
 * with camelCase names (`freeRemaining`): unknown fields are dropped, and a
 * missing `data` (the one kind that allows it) is null.
 */
function decoderOf<T>(what: string, table: Readonly<Record<string, FieldKind>>): (value: unknown) => T {
  const entries = Object.entries(table).map(
    ([name, kind]) => [name, name.replace(/_./g, (m) => m.charAt(1).toUpperCase()), kind] as const,
  );
  return (value) => {
    if (!isRecord(value)) throw new BillingError('decode', __DEV__ ? `${what} is not an object` : '');
    const out: Record<string, unknown> = {};
    for (const [name, key, [isValid, expected]] of entries) {
      const field = ownField(value, name);
      if (!isValid(field)) throw new BillingError('decode', __DEV__ ? `${name} is not ${expected}` : '');
      out[key] = field ?? null;
    }
    return out as T;
  };
}

const envelopeOf = decoderOf<Envelope>('body', {
  code: [Number.isSafeInteger, __DEV__ ? 'an integer' : ''],
  message: [(value) => typeof value === 'string', __DEV__ ? 'a string' : ''],
  data: [(value) => value == null || isRecord(value), __DEV__ ? 'an object or null' : ''],
});

/** Parses and checks the envelope `{ code, message, data }` of any body. */
export function decodeEnvelope(text: string): Envelope {
  // Undefined only when JSON.parse throws: JSON has no undefined.
  const body: unknown = unlessThrows(() => JSON.parse(text));
  if (body === undefined)
    throw new BillingError('decode', __DEV__ ? (text.trim() === '' ? 'empty body' : 'not JSON') : '');
  return envelopeOf(body);
}

/** The `message` of a failed status's body, `''` when it has none, `undefined` when the body is not JSON. */
export const decodeMessage = (text: string): string | undefined =>
  unlessThrows(() => {
    const message = ownField(Object(JSON.parse(text)), 'message');
    return typeof message === 'string' ? message : '';
  });

/** `data` of `GET /ai/v5/service/free_trial/count`. */
export const decodeFreeCount = decoderOf<FreeCount>('data', {
  is_enabled: FLAG,
  free_remaining: COUNT,
  free_total: COUNT,
  credits_per_use: AMOUNT,
});

/** `data` of `GET /ai/v1/credit/getBalance`. */
export const decodeBalance = decoderOf<{ balance: number }>('data', { balance: AMOUNT });

/** `data` of a `POST /ai/v5/service/free_trial` answered with code 0. */
export const decodeConsume = decoderOf<ConsumeData>('data', { free_remaining: COUNT, is_credit: FLAG });
