import type { BillingEvent } from '../../lib';
import { defaultFetch } from '../../lib/platform/default-fetch';
import { cleanup, fixture } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';
import { byMode } from '../helpers/mode';

import { billingEvents } from '../../lib';

afterEach(cleanup);

// Issue 18 item 6: a missing or broken fetch is a setup error (invalid_argument),
// never retried, whose message says what to pass; a real fetch's rejection
// (a TypeError too in browsers, for a CORS block) stays a retried network error.
function withEvents(fetch: unknown) {
  const events: BillingEvent[] = [];
  const made = fixture(
    {},
    { fetch: fetch as never, retries: 2, events: billingEvents({ onEvent: (event) => events.push(event) }) },
  );
  return { ...made, retries: () => events.filter((event) => event.type === 'request:retry').length };
}

describe('a missing or broken fetch is a setup error', () => {
  it("the default fetch where there is none (Jest's jsdom, a bare Hermes): invalid_argument at once, saying to pass fetch", async () => {
    const saved = globalThis.fetch;
    // What Jest's jsdom environment gives: no global fetch.
    delete (globalThis as { fetch?: unknown }).fetch;
    try {
      const { client, retries } = withEvents(defaultFetch);
      const error = await client.credits.getBalance().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'invalid_argument' });
      expect((error as Error).message).toBe(
        byMode(
          'GET http://billing.test/ai/v1/credit/getBalance: no fetch function: pass a working `fetch` to createClient',
          'GET http://billing.test/ai/v1/credit/getBalance: no working fetch',
        ),
      );
      expect(retries()).toBe(0);
    } finally {
      globalThis.fetch = saved;
    }
  });

  it('a fetch that throws synchronously before sending: invalid_argument, not retried', async () => {
    const { client, retries } = withEvents(() => {
      throw new TypeError("Failed to execute 'fetch' on 'Window': Illegal invocation");
    });
    const error = await client.billing.consume({ externalId: 'op-setup' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_argument', externalId: 'op-setup' });
    expect((error as Error).message).toMatch(
      byMode(
        /^POST http:\/\/billing\.test\/ai\/v5\/service\/free_trial: fetch threw before sending \(TypeError: Failed to execute 'fetch' on 'Window': Illegal invocation\): pass a working `fetch` to createClient$/,
        /^POST http:\/\/billing\.test\/ai\/v5\/service\/free_trial: no working fetch$/,
      ),
    );
    expect(retries()).toBe(0);
  });

  it('a fetch that meets a missing global (jsdom: "Response is not defined"): invalid_argument, not retried', async () => {
    const { client, retries } = withEvents(async () => {
      throw new ReferenceError('Response is not defined');
    });
    const error = await client.credits.getBalance().catch((caught: unknown) => caught);
    // The sanitized cause is development only: it is made by the redaction.
    expect(error).toMatchObject(
      byMode({ code: 'invalid_argument', cause: { name: 'ReferenceError' } }, { code: 'invalid_argument' }),
    );
    expect(retries()).toBe(0);
  });

  it('a TypeError rejected by a real fetch (a CORS block, a refused connection) stays network and is retried', async () => {
    const { client, clock, retries } = withEvents(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = client.credits.getBalance().catch((caught: unknown) => caught);
    for (let i = 0; i < 3; i++) {
      await settle();
      clock.advanceBy(10_000);
    }
    expect(await error).toMatchObject({ code: 'network' });
    expect(retries()).toBe(2);
  });
});
