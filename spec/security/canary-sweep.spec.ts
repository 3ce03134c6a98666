import { inspect } from 'node:util';
import { createClient } from '../../lib/client';
import { REFERENCE_PATHS as P } from '../../lib/testing/wire';
import { consumeScenarios } from '../faults/consume-scenarios';
import { CANARY, openBackend, TOKEN, type BackendKind } from '../faults/harness';
import { renderings, runScenario } from '../faults/run-scenario';
import { outcomeOf, type Scenario } from '../faults/scenario-types';
import { usageScenarios } from '../faults/usage-scenarios';
import { recordFigures } from '../helpers/figures';

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
      outcome: { rejects: { code: 'backend', backendCode: 30002, message: expect.stringContaining('[redacted]') } },
      requests: { count: 0, balance: 0, consume: 1 },
      externalIds: ['op-echo-message'],
      charges: [],
      cached: { freeRemaining: 2 },
    },
  },
  {
    name: 'getUsage: a 401 body quotes the token',
    id: 'usage-echo-401',
    behaviour: 'rejects http 401; the body is not carried',
    faults: () => [
      [P.balance, 1, { kind: 'malformed', status: 401, body: `{"code":401,"message":"who is ${TOKEN}?"}` }],
    ],
    act: async ({ h }) => outcomeOf(h.run(h.client.billing.getUsage())),
    expect: {
      outcome: { rejects: { code: 'http', status: 401 } },
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

describe.each<BackendKind>(['in-process', 'reference'])('the canary never leaves the headers (%s backend)', (kind) => {
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_, scenario) => {
    const backend = await openBackend(kind);
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
