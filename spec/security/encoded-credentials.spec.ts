import { inspect } from 'node:util';
import type { BillingEvent } from '../../lib';
import { cleanup, coded, fixture, PATH } from '../helpers/client-fixture';
import { byMode, requestMessage } from '../helpers/mode';
import { billingEvents } from '../../lib';

afterEach(cleanup);

// Issue 18 item 8: a backend or proxy that echoes a credential encoded puts a
// reversible copy of it in what the client shows, unless that form is redacted too.
const TOKEN = 'sk/live+9f3aE7c1Qx~Zp';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

const FORMS: ReadonlyArray<readonly [string, string]> = [
  ['URL-encoded token', encodeURIComponent(TOKEN)],
  ['URL-encoded token, lower-case hex', encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
  ['URL-encoded header value', encodeURIComponent(`Bearer ${TOKEN}`)],
  ['base64 token', b64(TOKEN)],
  ['base64url token', b64url(TOKEN)],
  ['base64 header value', b64(`Bearer ${TOKEN}`)],
  ['base64 token, unpadded', b64(TOKEN).replace(/=+$/, '')],
  ['base64 of a JSON quoting the token (any alignment)', b64(`{"t":"${TOKEN}"}`)],
  ['base64url of a JSON quoting the token', b64url(`{"tk":"${TOKEN}"}`)],
];

// The token's own encodings, wherever they sit in an encoded text: what must never be shown.
function leaks(text: string): string[] {
  const cores = [TOKEN, encodeURIComponent(TOKEN), encodeURIComponent(TOKEN).toLowerCase()];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = b64('\0'.repeat(shift) + TOKEN);
    const core = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + TOKEN.length)) / 6));
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores.filter((core) => text.toLowerCase().includes(core.toLowerCase()));
}

function shown(error: unknown, events: BillingEvent[], status: unknown): string {
  const parts = [String(error), JSON.stringify(error), inspect(error, { depth: 6, showHidden: true })];
  if (error instanceof Error) parts.push(error.stack ?? '');
  parts.push(inspect(events, { depth: 6, showHidden: true }), JSON.stringify(events));
  parts.push(inspect(status, { depth: 6, showHidden: true }), JSON.stringify(status));
  return parts.join('\n');
}

describe('redaction covers encoded forms of header values', () => {
  it.each(FORMS)('a backend message quoting the %s is redacted everywhere', async (_, form) => {
    const events: BillingEvent[] = [];
    const { client, backend } = fixture(
      {},
      {
        headers: { Authorization: `Bearer ${TOKEN}` },
        events: billingEvents({ onEvent: (event) => events.push(event) }),
      },
    );
    await client.billing.getUsage();
    backend.script(PATH.consume, { body: coded(30002, `denied for ${form}`) });
    const error = await client.billing.consume({ externalId: 'op-echo' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'backend', message: requestMessage(expect.stringContaining('[redacted]')) });
    expect(leaks(shown(error, events, client.billing.getStatus()))).toEqual([]);
  });

  it('an http status message quoting the base64 token is redacted', async () => {
    const { client, backend } = fixture({}, { headers: { Authorization: `Bearer ${TOKEN}` }, retries: 0 });
    backend.script(PATH.balance, { status: 403, body: coded(403, `forbidden: ${b64(TOKEN)}`) });
    const error = await client.billing.getUsage().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'http', status: 403 });
    expect(leaks(shown(error, [], client.billing.getStatus()))).toEqual([]);
  });

  it("a fetch error whose name is the token reaches neither the cause's name, the stack nor the message", async () => {
    const token = 'tok_live_4f9a8b7c6d5e';
    const { client, backend } = fixture({}, { headers: { Authorization: `Bearer ${token}` }, retries: 0 });
    backend.pace = () => Promise.reject(Object.assign(new Error('request failed'), { name: token }));
    const error = await client.credits.getBalance().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'network', ...byMode({ cause: { name: 'Error' } }, {}) });
    expect(shown(error, [], client.billing.getStatus())).not.toContain(token);
  });
});
