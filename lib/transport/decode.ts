import { BillingError } from '../errors';
import type { Envelope } from '../wire';

export type { Envelope } from '../wire';

/** `data` of the free-quota GET, decoded. */
export interface FreeCount {
  readonly isEnabled: boolean;
  readonly freeRemaining: number;
  readonly freeTotal: number;
  readonly creditsPerUse: number;
}

/** `data` of a charged POST, decoded. */
export interface ConsumeData {
  readonly freeRemaining: number;
  readonly isCredit: boolean;
}

type Data = Readonly<Record<string, unknown>>;

// The message is only the reason: the request names the call and what came back (failure.ts).
function fail(reason: string): never {
  throw new BillingError('decode', reason);
}

const isRecord = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Own properties only: a body's `__proto__` or `constructor` key is never read as a field.
const own = (data: Data, name: string): unknown =>
  Object.prototype.hasOwnProperty.call(data, name) ? data[name] : undefined;

// The kinds of field: a check and what it says when a value fails it.
type Kind = readonly [(value: unknown) => boolean, string];
const COUNT: Kind = [(value) => Number.isSafeInteger(value) && (value as number) >= 0, 'an integer >= 0'];
const AMOUNT: Kind = [(value) => Number.isFinite(value) && (value as number) >= 0, 'a number >= 0'];
const FLAG: Kind = [(value) => typeof value === 'boolean', 'a boolean'];

/** A decoder of `data` from a table: each output field's wire name and kind. */
function fields<T>(table: { readonly [K in keyof T]: readonly [string, Kind] }): (envelope: Envelope) => T {
  const entries = Object.entries<readonly [string, Kind]>(table);
  return ({ data }) => {
    if (data === null) fail('data is null');
    const out: Record<string, unknown> = {};
    for (const [key, [name, [valid, what]]] of entries) {
      const value = own(data, name);
      if (!valid(value)) fail(`${name} is not ${what}`);
      out[key] = value;
    }
    return out as T;
  };
}

/** Parses and checks the envelope `{ code, message, data }` of any body. */
export function decodeEnvelope(text: string): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail(text.trim() === '' ? 'empty body' : 'not JSON');
  }
  if (!isRecord(body)) return fail('not a JSON object');
  const code = own(body, 'code');
  const message = own(body, 'message');
  const data = own(body, 'data') ?? null;
  if (!Number.isSafeInteger(code)) fail('code is not an integer');
  if (typeof message !== 'string') fail('message is not a string');
  if (data !== null && !isRecord(data)) fail('data is neither an object nor null');
  return { code: code as number, message: message as string, data: data as Data | null };
}

/** The `message` of a failed status's body, `''` when it has none, `undefined` when the body is not JSON. */
export function decodeMessage(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    const message = isRecord(body) ? own(body, 'message') : '';
    return typeof message === 'string' ? message : '';
  } catch {
    return undefined;
  }
}

/** `data` of `GET /ai/v5/service/free_trial/count`. */
export const decodeFreeCount = fields<FreeCount>({
  isEnabled: ['is_enabled', FLAG],
  freeRemaining: ['free_remaining', COUNT],
  freeTotal: ['free_total', COUNT],
  creditsPerUse: ['credits_per_use', AMOUNT],
});

const balanceData = fields<{ balance: number }>({ balance: ['balance', AMOUNT] });

/** `data` of `GET /ai/v1/credit/getBalance`. */
export const decodeBalance = (envelope: Envelope): number => balanceData(envelope).balance;

/** `data` of a `POST /ai/v5/service/free_trial` answered with code 0. */
export const decodeConsume = fields<ConsumeData>({
  freeRemaining: ['free_remaining', COUNT],
  isCredit: ['is_credit', FLAG],
});
