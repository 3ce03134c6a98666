import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createClient, isBillingError, refetchOn, type ClientOptions, type FetchLike } from '../../lib';
import { defaultFetch as browserFetch } from '../../lib/platform/default-fetch';
import { createReferenceBackend } from '../../lib/testing';

// Every error message the docs quote must be one the library really gives (issue 25,
// point 5). A quote is an inline code span in a Markdown file of the README or docs/
// that has the shape of one of our messages; `…` and `<placeholder>` stand for any text.
const ROOT = join(__dirname, '..', '..');
const MARKDOWN = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...readdirSync(join(ROOT, 'docs', 'recipes'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/recipes/${name}`),
];
// What our messages say (lib/shared/option-names.ts, core/snapshot.ts, transport/failure.ts, decode.ts).
const MESSAGE_SHAPE =
  /must be |did you mean|unknown (\w+ )?option|no fetch function|fetch threw|is not from billing|check baseUrl|check the headers option|is not an? |failed: |network error|connection refused/;
// Quoted on purpose, and not ours: what other code throws.
const NOT_OURS = [
  'globalThis.fetch is not a function', // jsdom's missing fetch, the cause our message replaced
  '… (origin and path prefix of the billing API)', // decisions.md: what a hint "was"
];

interface Quote {
  readonly file: string;
  readonly text: string;
}

function quotedMessages(): Quote[] {
  return MARKDOWN.flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
    // `` a span with ` inside `` or `a span`, across a line break.
    return [...text.matchAll(/``\s?([^`]+?(?:`[^`]+`[^`]*?)*)\s?``|`([^`\n]+(?:\n[^`\n]+)?)`/g)]
      .map((match) => (match[1] ?? match[2]!).replace(/\s*\n\s*/g, ' ').trim())
      .filter((span) => MESSAGE_SHAPE.test(span) && !NOT_OURS.includes(span))
      .map((span) => ({ file, text: span }));
  });
}

/** A quote as a pattern: `…` and `<name>` match any text. */
const pattern = (quote: string): RegExp =>
  new RegExp(
    quote
      .split(/…|<[^>]+>/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+?'),
  );

const BASE = { baseUrl: 'https://api.example.com', appKey: 'poster' };

/** The message `createClient` throws for these options (or `make` throws, a feature's factory). */
function thrownBy(
  options: Record<string, unknown>,
  make = () => createClient({ ...BASE, ...options } as ClientOptions),
): string {
  try {
    make().billing.dispose();
  } catch (error) {
    if (isBillingError(error, 'invalid_argument')) return error.message;
    throw error;
  }
  throw new Error(`createClient accepted ${JSON.stringify(options)}`);
}

/** The message a call rejects with, through this fetch (no retry). */
async function rejectedWith(
  call: 'getUsage' | 'balance',
  fetch: FetchLike,
  options: Partial<ClientOptions> = {},
): Promise<string> {
  const client = createClient({ ...BASE, fetch, retries: 0, ...options });
  try {
    await (call === 'balance' ? client.credits.getBalance() : client.billing.getUsage());
  } catch (error) {
    if (isBillingError(error)) return error.message;
    throw error;
  } finally {
    client.billing.dispose();
  }
  throw new Error(`${call} resolved`);
}

const answering =
  (body: string): FetchLike =>
  async () =>
    new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });

const rejecting =
  (error: Error): FetchLike =>
  async () => {
    throw error;
  };

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

/** What the library says for each mistake the docs quote a message of. */
async function realMessages(): Promise<string[]> {
  const backend = createReferenceBackend({
    users: [{ token: 't', freeRemaining: 1, freeTotal: 1, creditsPerUse: 1, creditsBalance: 1 }],
  });
  const globalFetch = globalThis.fetch;
  const messages = [
    thrownBy({ timeout: 1000 }),
    thrownBy({ refetch: { onFocus: true } }),
    thrownBy({}, () => createClient({ ...BASE, refetch: refetchOn({ onFocus: true } as never) })),
    thrownBy({}, () => createClient({ ...BASE, refetch: refetchOn({ intervalMs: 500 }) })),
    thrownBy({ timeoutMs: 0 }),
    thrownBy({
      bootstrap: {
        v: 1,
        usage: { isEnabled: true, freeRemaining: -1, freeTotal: 1, creditsPerUse: 1, creditsBalance: 1 },
        fetchedAt: 0,
        freePeriodEndsAt: null,
      },
    }),
    await rejectedWith('getUsage', backend.fetch, { headers: { Authorization: 'Bearer unknown' } }),
    await rejectedWith('getUsage', backend.fetch, { baseUrl: 'https://api.example.com/prefix' }),
    await rejectedWith('balance', rejecting(Object.assign(new Error('broken pipe'), { code: 'EPIPE' }))),
    await rejectedWith('balance', rejecting(new RangeError('out of range'))),
    await rejectedWith('balance', answering('[]')),
    await rejectedWith('balance', answering('{"code":0,"message":"ok","data":[]}')),
    await rejectedWith('balance', (input, init) => globalFetch(input, init), {
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
    }),
  ];
  // The default fetch where there is no global fetch (Jest's jsdom, a bare Hermes).
  Reflect.deleteProperty(globalThis, 'fetch');
  try {
    messages.push(await rejectedWith('balance', browserFetch));
  } finally {
    globalThis.fetch = globalFetch;
  }
  // A fetch that throws before sending, for a reason of its own.
  const throwing: FetchLike = () => {
    throw new TypeError('Invalid URL');
  };
  messages.push(await rejectedWith('balance', throwing));
  await backend.close();
  return messages;
}

describe('quoted error messages in the docs (issue 25, point 5)', () => {
  it('finds the quotes: the README quotes the messages of options, refetch and a missing fetch', () => {
    const readme = quotedMessages()
      .filter((quote) => quote.file === 'README.md')
      .map((quote) => quote.text);
    expect(readme).toEqual(
      expect.arrayContaining([
        expect.stringContaining('unknown option "timeout"'),
        expect.stringContaining('refetchOn() intervalMs must be'),
        expect.stringContaining('no fetch function'),
      ]),
    );
  });

  it('each quoted message is one the library gives', async () => {
    const messages = await realMessages();
    const stale = quotedMessages().filter((quote) => !messages.some((message) => pattern(quote.text).test(message)));
    expect({ stale, messages }).toEqual({ stale: [], messages });
  });
});
