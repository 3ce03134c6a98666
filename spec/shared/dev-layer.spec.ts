import { BillingError, createClient, type ClientOptions } from '../../lib';
import { SHORT_REQUEST_MESSAGE } from '../helpers/mode';

// Issue 24: one failure, made once as development builds it and once as a
// production build does (NODE_ENV is read when the error is built, as a
// bundler's replacement would fix it): the same error, the same facts, and in
// production a short message that names the method and the URL, never the
// query string, a header value or what the backend said.
const TOKEN = 'tok_live_8d1f0c3b9a77';
const BASE = 'https://api.example.com/gateway';
const FACTS = ['name', 'code', 'status', 'backendCode', 'retryAfterMs', 'externalId'] as const;

type Answer = { status?: number; body: string; headers?: Record<string, string> } | Error;
type Call = (client: ReturnType<typeof createClient>) => Promise<unknown>;

async function failureIn(mode: string, answer: Answer, call: Call, options: Partial<ClientOptions> = {}) {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = mode;
  try {
    const client = createClient({
      baseUrl: BASE,
      appKey: 'poster',
      headers: { Authorization: `Bearer ${TOKEN}` },
      retries: 0,
      fetch: async () => {
        if (answer instanceof Error) throw answer;
        return new Response(answer.body, { status: answer.status ?? 200, headers: answer.headers });
      },
      ...options,
    });
    const error = await call(client).then(
      () => new Error('the call succeeded'),
      (caught: unknown) => caught,
    );
    client.billing.dispose();
    if (!(error instanceof BillingError)) throw error;
    return error;
  } finally {
    process.env.NODE_ENV = saved;
  }
}

const facts = (error: BillingError) => FACTS.map((key) => [key, error[key]]);
const echo = (code: number) => JSON.stringify({ code, message: `no for Bearer ${TOKEN}`, data: null });

const consume: Call = (client) => client.billing.consume({ externalId: 'op-dev-layer' });
const usage: Call = (client) => client.billing.getUsage();
const balance: Call = (client) => client.credits.getBalance();

describe('a production build throws the same error with a short message (issue 24)', () => {
  it.each<[string, Answer, Call, Partial<BillingError>]>([
    [
      'a 404 HTML page',
      { status: 404, body: '<html></html>', headers: { 'content-type': 'text/html' } },
      balance,
      { code: 'http', status: 404 },
    ],
    [
      'a 429 with Retry-After',
      { status: 429, body: echo(429), headers: { 'retry-after': '3' } },
      consume,
      { code: 'http', status: 429, retryAfterMs: 3000, externalId: 'op-dev-layer' },
    ],
    ['a 401 quoting the token', { status: 401, body: echo(401) }, usage, { code: 'http', status: 401 }],
    [
      'a backend code quoting the token',
      { body: echo(30002) },
      consume,
      { code: 'backend', backendCode: 30002, externalId: 'op-dev-layer' },
    ],
    [
      'a body of the wrong shape',
      { body: JSON.stringify({ code: 0, message: '', data: {} }) },
      usage,
      { code: 'decode' },
    ],
    [
      'a fetch error quoting the token',
      new TypeError(`Bearer ${TOKEN} refused`),
      consume,
      { code: 'network', externalId: 'op-dev-layer' },
    ],
  ])('%s', async (_name, answer, call, expected) => {
    const development = await failureIn('development', answer, call);
    const production = await failureIn('production', answer, call);
    expect(development).toMatchObject(expected);
    expect(facts(production)).toEqual(facts(development));
    expect(production.message).toMatch(SHORT_REQUEST_MESSAGE);
    expect(production.message.length).toBeLessThan(development.message.length);
    // The query string holds the appKey and the consume's externalId.
    expect(production.message).not.toMatch(/[?#]|module=|poster|op-dev-layer/);
    for (const error of [development, production]) expect(JSON.stringify(error) + error.stack).not.toContain(TOKEN);
  });

  it.each<[string, Partial<ClientOptions>, string]>([
    ['an invalid option value', { timeoutMs: 'Bearer x' as never }, 'invalid timeoutMs'],
    ['a header value fetch refuses', { headers: { Authorization: `Bearer ${TOKEN}\n` } }, 'invalid headers'],
  ])('%s is still invalid_argument, named shortly', async (_name, options, message) => {
    const call: Call = async (client) => client.credits.getBalance();
    const attempt = (mode: string) =>
      failureIn(mode, { body: '' }, call, options).catch((error: unknown) => error as BillingError);
    const development = await attempt('development');
    const production = await attempt('production');
    expect(facts(production)).toEqual(facts(development));
    expect(production).toMatchObject({ code: 'invalid_argument', message });
    expect(development.message).not.toBe(message);
    expect(production.message + development.message).not.toContain(TOKEN);
  });
});
