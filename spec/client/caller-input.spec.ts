import { Headers as CrossFetchHeaders } from 'cross-fetch';
import { cleanup, fixture } from '../helpers/client-fixture';
import { settle } from '../helpers/virtual-clock';
import { outcomeOf } from '../faults/harness';
import type { ConsumeOptions, GetUsageOptions, HeadersOption } from '../../lib/shared/types';

afterEach(cleanup);

const TOKEN = 'Bearer tok-caller-input-1234';

describe('headers given as a Headers instance', () => {
  it('a Headers instance is sent on every request', async () => {
    const { client, backend } = fixture({}, { headers: new Headers({ Authorization: TOKEN, 'X-App': 'poster' }) });
    await client.billing.getUsage();
    await client.billing.consume({ externalId: 'h-1' });
    expect(backend.requests).toHaveLength(3);
    for (const request of backend.requests) {
      expect(request.headers).toMatchObject({ authorization: TOKEN, 'x-app': 'poster' });
    }
  });

  it('a function returning a Headers instance (sync or async) is sent on every request', async () => {
    const sync: HeadersOption = () => new Headers({ Authorization: TOKEN });
    const async: HeadersOption = async () => new Headers([['Authorization', TOKEN]]);
    for (const headers of [sync, async]) {
      const { client, backend } = fixture({}, { headers });
      await client.billing.getUsage();
      expect(backend.requests.map((request) => request.headers['authorization'])).toEqual([TOKEN, TOKEN]);
    }
  });
});

describe('null options are no options', () => {
  it('consume(null) consumes like consume()', async () => {
    const { client, backend } = fixture();
    await expect(client.billing.consume(null as unknown as ConsumeOptions)).resolves.toMatchObject({
      isCredit: false,
    });
    expect(backend.charged).toHaveLength(1);
  });

  it('getUsage(null) fetches like getUsage()', async () => {
    const { client } = fixture();
    await expect(client.billing.getUsage(null as unknown as GetUsageOptions)).resolves.toMatchObject({
      freeRemaining: 3,
    });
  });
});

describe('a signal that is not an AbortSignal', () => {
  const notSignals: Array<[string, unknown]> = [
    ['an empty object', {}],
    ['a string', 'x'],
    ['a number', 1],
    ['null', null],
    ['an object with a string aborted', { aborted: 'no', addEventListener: () => undefined }],
  ];

  it.each(notSignals)('consume rejects invalid_argument for %s, before any request', async (_, signal) => {
    const { client, backend } = fixture();
    const outcome = await outcomeOf(client.billing.consume({ externalId: 's-1', signal: signal as AbortSignal }));
    expect(outcome).toEqual({ error: expect.objectContaining({ code: 'invalid_argument', externalId: 's-1' }) });
    await settle(10);
    expect(backend.requests).toEqual([]);
  });

  it.each(notSignals)('getUsage rejects invalid_argument for %s, before any request', async (_, signal) => {
    const { client, backend } = fixture();
    const outcome = await outcomeOf(client.billing.getUsage({ signal: signal as AbortSignal }));
    expect(outcome).toEqual({ error: expect.objectContaining({ code: 'invalid_argument' }) });
    await settle(10);
    expect(backend.requests).toEqual([]);
  });

  it('a signal from another realm or a polyfill (same shape) is honoured', async () => {
    const { client, backend } = fixture();
    const listeners: Array<() => void> = [];
    const foreign = {
      aborted: false,
      reason: undefined,
      addEventListener: (_type: string, listener: () => void) => listeners.push(listener),
      removeEventListener: () => undefined,
    };
    await expect(client.billing.consume({ signal: foreign as unknown as AbortSignal })).resolves.toEqual({
      freeRemaining: 2,
      isCredit: false,
      isBlacklisted: false,
    });
    expect(backend.charged).toHaveLength(1);
    backend.holding = true;
    const pending = outcomeOf(client.billing.getUsage({ signal: foreign as unknown as AbortSignal }));
    await settle(5);
    foreign.aborted = true;
    listeners.forEach((listener) => listener());
    expect(await pending).toEqual({ error: expect.objectContaining({ code: 'aborted' }) });
    backend.release();
  });
});

describe('a headers function that never settles', () => {
  it('times the attempt out, retries per policy, and the queue moves on', async () => {
    let calls = 0;
    const headers = () => {
      calls += 1;
      return new Promise<Record<string, string>>(() => undefined);
    };
    const { client, clock, backend } = fixture({}, { headers, timeoutMs: 1_000, retries: 1 });
    const first = outcomeOf(client.billing.consume({ externalId: 'hang-1' }));
    const second = outcomeOf(client.billing.consume({ externalId: 'hang-2' }));
    for (let i = 0; i < 20; i++) {
      await settle(3);
      clock.advanceBy(1_000);
    }
    expect(await first).toEqual({ error: expect.objectContaining({ code: 'timeout', externalId: 'hang-1' }) });
    expect(await second).toEqual({ error: expect.objectContaining({ code: 'timeout', externalId: 'hang-2' }) });
    expect(calls).toBe(4);
    expect(backend.requests).toEqual([]);
  });

  it('a retry whose headers do settle sends the request', async () => {
    let calls = 0;
    const headers = () => {
      calls += 1;
      return calls === 1 ? new Promise<Record<string, string>>(() => undefined) : { Authorization: TOKEN };
    };
    const { client, clock, backend } = fixture({}, { headers, timeoutMs: 1_000, retries: 1 });
    const outcome = outcomeOf(client.billing.consume({ externalId: 'hang-once' }));
    for (let i = 0; i < 20; i++) {
      await settle(3);
      clock.advanceBy(1_000);
    }
    expect(await outcome).toEqual({ ok: expect.objectContaining({ isCredit: false }) });
    expect(backend.requests.map((request) => request.headers['Authorization'])).toEqual([TOKEN]);
  });
});

describe('header names and values that fetch refuses', () => {
  const refused: Array<[string, Record<string, string>]> = [
    ['a CR LF in a value', { Authorization: `${TOKEN}\r\nX-Injected: 1` }],
    ['a LF in a value', { Authorization: `${TOKEN}\n` }],
    ['a NUL in a value', { Authorization: `${TOKEN}\u0000` }],
    ['a character beyond Latin-1 in a value', { 'X-User': 'Zoë €' }],
    ['a space in a name', { 'X Token': 'abc' }],
    ['a colon in a name', { 'X-Token:': 'abc' }],
    ['an empty name', { '': 'abc' }],
  ];

  it.each(refused)('a record with %s is refused by createClient', (_, headers) => {
    expect(() => fixture({}, { headers })).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  it.each(refused)('a headers function giving %s fails invalid_argument, unretried and unsent', async (_, headers) => {
    let calls = 0;
    const { client, clock, backend } = fixture({}, { headers: () => (calls++, headers), retries: 2 });
    // Like the default fetch (cross-fetch, node-fetch in Node): the headers go through its Headers class first.
    backend.pace = async (request) => void new CrossFetchHeaders(request.headers);
    const pending = outcomeOf(client.billing.consume({ externalId: 'crlf-1' }));
    for (let i = 0; i < 10; i++) {
      await settle(3);
      clock.advanceBy(1_000);
    }
    const outcome = await pending;
    expect(outcome).toEqual({ error: expect.objectContaining({ code: 'invalid_argument', externalId: 'crlf-1' }) });
    expect(calls).toBe(1);
    expect(backend.requests).toHaveLength(0);
    const message = (outcome as { error: Error }).error.message;
    expect(message).not.toContain('tok-caller-input');
  });
});
