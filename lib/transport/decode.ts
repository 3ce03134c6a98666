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

/** How every decode error's message starts; the request adds which call and what came back. */
export const MALFORMED = 'Malformed response body: ';

function fail(what: string): never {
  throw new BillingError('decode', `${MALFORMED}${what}`);
}

function isRecord(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Own properties only: a body's `__proto__` or `constructor` key is never read as a field.
function field(data: Data, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(data, name) ? data[name] : undefined;
}

function count(data: Data, name: string): number {
  const value = field(data, name);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) fail(`${name} is not an integer >= 0`);
  return value;
}

function amount(data: Data, name: string): number {
  const value = field(data, name);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail(`${name} is not a number >= 0`);
  return value;
}

function flag(data: Data, name: string): boolean {
  const value = field(data, name);
  if (typeof value !== 'boolean') fail(`${name} is not a boolean`);
  return value;
}

/** Parses and checks the envelope `{ code, message, data }` of any body. */
export function decodeEnvelope(text: string): Envelope {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail(text.trim() === '' ? 'empty body' : 'not JSON');
  }
  if (!isRecord(body)) fail('not a JSON object');
  const code = field(body, 'code');
  const message = field(body, 'message');
  const data = field(body, 'data');
  if (typeof code !== 'number' || !Number.isSafeInteger(code)) fail('code is not an integer');
  if (typeof message !== 'string') fail('message is not a string');
  if (data !== null && !isRecord(data)) fail('data is neither an object nor null');
  return { code, message, data: data ?? null };
}

/** The `message` of a failed status's body, `''` when it has none, `undefined` when the body is not JSON. */
export function decodeMessage(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const message = isRecord(body) ? field(body, 'message') : undefined;
  return typeof message === 'string' ? message : '';
}

function requireData(envelope: Envelope): Data {
  if (envelope.data === null) fail('data is null');
  return envelope.data;
}

/** `data` of `GET /ai/v5/service/free_trial/count`. */
export function decodeFreeCount(envelope: Envelope): FreeCount {
  const data = requireData(envelope);
  const freeRemaining = count(data, 'free_remaining');
  const freeTotal = count(data, 'free_total');
  return {
    isEnabled: flag(data, 'is_enabled'),
    freeRemaining,
    freeTotal,
    creditsPerUse: amount(data, 'credits_per_use'),
  };
}

/** `data` of `GET /ai/v1/credit/getBalance`. */
export function decodeBalance(envelope: Envelope): number {
  return amount(requireData(envelope), 'balance');
}

/** `data` of a `POST /ai/v5/service/free_trial` answered with code 0. */
export function decodeConsume(envelope: Envelope): ConsumeData {
  const data = requireData(envelope);
  return { freeRemaining: count(data, 'free_remaining'), isCredit: flag(data, 'is_credit') };
}
