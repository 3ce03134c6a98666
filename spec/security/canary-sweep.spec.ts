import { inspect } from 'node:util';
import { createClient } from '../../lib';
import { REFERENCE_PATHS as P } from '../../lib/testing';
import { consumeScenarios } from '../faults/consume-scenarios';
import { openBackend } from '../testing/http-helpers';
import { renderings, runScenario } from '../faults/run-scenario';
import { CANARY, KINDS, outcomeOf, TOKEN, type Scenario } from '../faults/harness';
import { usageScenarios } from '../faults/usage-scenarios';
import { recordFigures } from '../helpers/figures';
import { byMode, requestMessage } from '../helpers/mode';

const echo = (message: string) =>
  ({ kind: 'malformed', body: JSON.stringify({ code: 30002, message, data: null }) }) as const;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const basic = (user: string, password: string) => `Basic ${b64(`${user}:${password}`)}`;

// The credential in a header other than the reference backend's Bearer: no priming
// (it would be refused), the fault answers before authentication.
function unprimedEchoes(rows: ReadonlyArray<[string, Record<string, string>, string]>): Scenario[] {
  return rows.map(([what, headers, message], i) => ({
    name: `consume: the backend quotes a credential-like part (${what})`,
    id: `op-echo-part-${i}`,
    behaviour: 'rejects backend; every credential-like part of a header value is redacted',
    prime: false,
    options: { headers },
    faults: () => [[P.consume, 1, echo(message)]],
    expect: {
      outcome: { rejects: { code: 'backend', message: requestMessage(expect.stringContaining('[redacted]')) } },
      requests: { count: 0, balance: 0, consume: 1 },
      externalIds: [`op-echo-part-${i}`],
      charges: [],
      cached: null,
    },
  }));
}

// Rows where the backend itself tries to leak the credential back.
const echoScenarios: readonly Scenario[] = [
  {
    name: 'consume: the backend quotes the token in its message',
    id: 'op-echo-message',
    behaviour: 'rejects backend; the quoted header values are redacted',
    faults: () => [
      [
        P.consume,
        1,
        {
          kind: 'malformed',
          body: JSON.stringify({ code: 30002, message: `bad Bearer ${TOKEN} / ${CANARY}`, data: null }),
        },
      ],
    ],
    expect: {
      outcome: {
        rejects: {
          code: 'backend',
          backendCode: 30002,
          message: requestMessage(expect.stringContaining('[redacted]')),
        },
      },
      requests: { count: 0, balance: 0, consume: 1 },
      externalIds: ['op-echo-message'],
      charges: [],
      cached: { freeRemaining: 2 },
    },
  },
  {
    name: 'consume: the backend quotes the bare token after its scheme (Authorization the only header)',
    id: 'op-echo-bare-token',
    behaviour: 'rejects backend; the token after the scheme is redacted',
    options: { headers: { Authorization: `Bearer ${TOKEN}` } },
    faults: () => [[P.consume, 1, echo(`token ${TOKEN} may not use module generator_poster`)]],
    expect: {
      outcome: {
        rejects: {
          code: 'backend',
          message: requestMessage(expect.stringContaining('token [redacted] may not use module')),
        },
      },
      requests: { count: 0, balance: 0, consume: 1 },
      externalIds: ['op-echo-bare-token'],
      charges: [],
      cached: { freeRemaining: 2 },
    },
  },
  ...unprimedEchoes([
    ['Token scheme', { Authorization: `Token ${TOKEN}` }, `unknown token ${TOKEN}`],
    ['lower-case bearer, extra spaces', { authorization: `bearer   ${TOKEN} ` }, `bad ${TOKEN}.`],
    ['Basic credentials, quoted encoded', { Authorization: basic('alice', CANARY) }, `bad ${b64(`alice:${CANARY}`)}`],
    ['Basic credentials, password quoted decoded', { Authorization: basic('alice', CANARY) }, `user alice: ${CANARY}`],
    ['a cookie part', { Cookie: `theme=dark; sid=s${CANARY}` }, `session s${CANARY} expired`],
    ['a comma-separated part', { 'X-Keys': `k1-${CANARY},k2-other` }, `key k1-${CANARY} revoked`],
  ]),
  {
    name: 'getUsage: a 401 body quotes the bare token',
    id: 'usage-echo-401-bare',
    behaviour: "rejects http 401 with the backend's message, the token redacted",
    options: { headers: { Authorization: `Bearer ${TOKEN}` } },
    faults: () => [
      [P.balance, 1, { kind: 'malformed', status: 401, body: `{"code":401,"message":"who is ${TOKEN}?"}` }],
    ],
    act: async ({ h }) => outcomeOf(h.run(h.client.billing.getUsage())),
    expect: {
      outcome: {
        rejects: { code: 'http', status: 401, message: requestMessage(expect.stringContaining('who is [redacted]?')) },
      },
      requests: { count: 1, balance: 1, consume: 0 },
      externalIds: [],
      charges: [],
      cached: { freeRemaining: 2 },
    },
  },
  {
    name: 'getUsage: a 401 body quotes the token',
    id: 'usage-echo-401',
    behaviour: "rejects http 401 with the backend's message, the quoted header values redacted",
    faults: () => [
      [P.balance, 1, { kind: 'malformed', status: 401, body: `{"code":401,"message":"who is ${TOKEN}?"}` }],
    ],
    act: async ({ h }) => outcomeOf(h.run(h.client.billing.getUsage())),
    expect: {
      outcome: {
        rejects: {
          code: 'http',
          status: 401,
          message: requestMessage(expect.stringContaining('check the headers option')),
        },
      },
      requests: { count: 1, balance: 1, consume: 0 },
      externalIds: [],
      charges: [],
      cached: { freeRemaining: 2 },
    },
  },
];

const scenarios = [...consumeScenarios, ...usageScenarios, ...echoScenarios];
const haystack: string[] = [];
let swept = 0;

const record = (...args: unknown[]) => {
  haystack.push(args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 5 }))).join(' '));
};

beforeAll(() => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    jest.spyOn(console, method).mockImplementation(record);
  }
});
afterAll(() => {
  jest.restoreAllMocks();
  const leaks = haystack.filter((text) => text.includes(CANARY)).length;
  recordFigures('canary-sweep', { scenariosSwept: swept, stringsSearched: haystack.length, leaks });
});

describe.each(KINDS)('the canary never leaves the headers (%s backend)', (_kind, transport) => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_, scenario) => {
    const backend = await openBackend(transport);
    try {
      const seen = await runScenario(backend, scenario);
      haystack.push(...seen);
      swept += 1;
      expect(seen.filter((text) => text.includes(CANARY))).toEqual([]);
    } finally {
      await backend.close();
    }
  });
});

describe('credentials outside the fault matrix', () => {
  it('a headers function that throws with the token is not quoted', async () => {
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      headers: () => {
        throw new Error(`token ${TOKEN} expired`);
      },
    });
    const outcome = await outcomeOf(client.billing.consume({ externalId: 'op-headers-throw' }));
    client.billing.dispose();
    expect(outcome).toEqual({
      error: expect.objectContaining({ code: 'invalid_argument', externalId: 'op-headers-throw' }),
    });
    const seen = renderings(outcome);
    haystack.push(...seen);
    expect(seen.filter((text) => text.includes(CANARY))).toEqual([]);
  });

  it('a network error quoting the request is carried as a redacted cause', async () => {
    const client = createClient({
      baseUrl: 'http://billing.nock.test',
      appKey: 'poster',
      headers: { Authorization: `Bearer ${TOKEN}` },
      retries: 0,
      fetch: async () => {
        throw Object.assign(new TypeError(`Bearer ${TOKEN} is not a legal HTTP header value`), { code: 'ERR_X' });
      },
    });
    const outcome = await outcomeOf(client.billing.consume({ externalId: 'op-network-echo' }));
    client.billing.dispose();
    // The redacted cause is development only (a production build has no cause).
    expect(outcome).toEqual({
      error: expect.objectContaining({ code: 'network', ...byMode({ cause: expect.any(Error) }, {}) }),
    });
    const seen = renderings(outcome);
    haystack.push(...seen);
    expect(seen.filter((text) => text.includes(CANARY))).toEqual([]);
  });

  it('a baseUrl carrying the token as credentials is refused without echoing it', () => {
    let error: unknown;
    try {
      createClient({ baseUrl: `https://user:${CANARY}@api.example.com`, appKey: 'poster' });
    } catch (caught) {
      error = caught;
    }
    const seen = renderings({ error });
    haystack.push(...seen);
    expect(error).toMatchObject({ code: 'invalid_argument' });
    expect(seen.filter((text) => text.includes(CANARY))).toEqual([]);
  });

  it('the whole sweep, console included, found no canary', () => {
    expect(haystack.length).toBeGreaterThan(scenarios.length * 2);
    expect(haystack.filter((text) => text.includes(CANARY))).toEqual([]);
  });
});
