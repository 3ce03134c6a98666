import type { Observer, Subscribable } from 'rxjs';
import { billingEvents, createClient, refetchOn, reloadSafe, tabSync, type ClientOptions } from '../../lib';
import { createReferenceBackend } from '../../lib/testing';
import { settle } from '../helpers/virtual-clock';

// Every development warning and every message site a user's data can reach, run with a secret in
// the headers and in the text of what was thrown (a WebSocket URL with `?access_token=…`, a storage or a
// channel that quotes what it was given): the secret must appear in no console output and in no error
// message. Warnings name an error's class, never its text.

const SECRET = 'sk_live_7f3a9c1e5b2d4068';
const TOKEN_URL = `wss://push.example/changes?access_token=${SECRET}`;
const HEADERS = { Authorization: `Bearer ${SECRET}` };
const thrown = () => new Error(`connection to ${TOKEN_URL} refused`);

const output: string[] = [];
const messages: string[] = [];
beforeEach(() => {
  output.splice(0);
  messages.splice(0);
  for (const level of ['warn', 'error', 'log', 'info'] as const) {
    jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      output.push(
        args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message} ${arg.stack}` : String(arg))).join(' '),
      );
    });
  }
});
afterEach(() => jest.restoreAllMocks());

const backend = createReferenceBackend({
  users: [{ token: SECRET, freeRemaining: 0, freeTotal: 1, creditsPerUse: 1, creditsBalance: 5 }],
});
const make = (options: Partial<ClientOptions> = {}) =>
  createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    headers: HEADERS,
    fetch: backend.fetch,
    ...options,
  });

/** Whatever a call rejects with, its message (and its cause's) kept for the final check. */
async function failure(call: () => Promise<unknown>): Promise<unknown> {
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  const { message, cause } = (error ?? {}) as { message?: string; cause?: { message?: string } };
  messages.push(String(message), String(cause?.message));
  return error;
}

const failingSource: Subscribable<never> = {
  subscribe: (observer: Partial<Observer<never>>) => {
    observer.error?.(thrown());
    return { unsubscribe: () => undefined };
  },
};
const throwingStorage = {
  getItem: () => {
    throw thrown();
  },
  setItem: () => {
    throw thrown();
  },
  removeItem: () => {
    throw thrown();
  },
};

describe(`no development warning or message quotes a secret (in the headers, or in thrown text)`, () => {
  afterEach(() => {
    expect(output.length + messages.length).toBeGreaterThan(0);
    for (const text of [...output, ...messages]) expect(text).not.toContain(SECRET);
  });

  it('refetchOn({ when }): a source failing with a tokened URL in its error', async () => {
    const client = make({ refetch: refetchOn({ when: failingSource }) });
    await settle();
    client.billing.dispose();
    expect(output.join()).toMatch(/refetchOn\(\{ when \}\) source failed \(Error\)/);
  });

  it('refetchOn({ focus, online }) where the window has no events (React Native)', () => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'window');
    Object.defineProperty(globalThis, 'window', { value: globalThis, configurable: true });
    try {
      make({ refetch: refetchOn({ focus: true, online: true }) }).billing.dispose();
    } finally {
      Reflect.deleteProperty(globalThis, 'window');
      if (had) Object.defineProperty(globalThis, 'window', had);
    }
    expect(output.join()).toMatch(/AppState/);
  });

  it('reloadSafe(): a storage that throws with the secret in its text', async () => {
    const client = make({ storage: reloadSafe(throwingStorage, { locks: null }) });
    await client.billing.consume({ externalId: 'secret-sweep-1' });
    client.billing.dispose();
    expect(output.join()).toMatch(/storage failed \(Error\)/);
  });

  it('tabSync(): a BroadcastChannel whose constructor throws with the secret in its text', () => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'BroadcastChannel');
    Object.defineProperty(globalThis, 'BroadcastChannel', {
      value: function Refusing() {
        throw thrown();
      },
      configurable: true,
    });
    try {
      make({ sync: tabSync({ locks: null }) }).billing.dispose();
    } finally {
      Reflect.deleteProperty(globalThis, 'BroadcastChannel');
      if (had) Object.defineProperty(globalThis, 'BroadcastChannel', had);
    }
    expect(output.join()).toMatch(/without a BroadcastChannel \(Error\)/);
  });

  it('billing.events$ without the events feature, and onEvent throwing on a failed call', async () => {
    const plain = make();
    plain.billing.events$.subscribe().unsubscribe();
    plain.billing.dispose();
    const client = make({
      fetch: () => Promise.reject(thrown()),
      retries: 0,
      events: billingEvents({
        onEvent: (event) => {
          if (event.type === 'refresh:failed' || event.type === 'consume:failed')
            throw (event as { error: Error }).error;
        },
      }),
    });
    await failure(() => client.billing.consume({ externalId: 'secret-sweep-2' }));
    client.billing.dispose();
    expect(output.join()).toMatch(/events\$ emits nothing without the events feature/);
    expect(output.join()).toMatch(/onEvent threw on "consume:failed"/);
  });

  it('the headers option function throwing with the secret in its text', async () => {
    const client = make({
      headers: () => {
        throw thrown();
      },
    });
    await failure(() => client.billing.getUsage());
    client.billing.dispose();
  });

  it('a fetch that throws or rejects quoting the secret from the headers', async () => {
    for (const fetch of [
      () => {
        throw new TypeError(`Invalid header value: Bearer ${SECRET}`);
      },
      () => Promise.reject(new TypeError(`fetch failed: Authorization Bearer ${SECRET}`)),
    ]) {
      const client = make({ fetch: fetch as never, retries: 0 });
      await failure(() => client.billing.getUsage());
      client.billing.dispose();
    }
  });

  it('a consume without crypto, and createClient without URL', async () => {
    const crypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    const client = make();
    try {
      await failure(() => client.billing.consume());
    } finally {
      client.billing.dispose();
      Reflect.deleteProperty(globalThis, 'crypto');
      if (crypto) Object.defineProperty(globalThis, 'crypto', crypto);
    }
    const url = Object.getOwnPropertyDescriptor(globalThis, 'URL');
    Object.defineProperty(globalThis, 'URL', { value: undefined, configurable: true });
    try {
      await failure(async () => make());
    } finally {
      Reflect.deleteProperty(globalThis, 'URL');
      if (url) Object.defineProperty(globalThis, 'URL', url);
    }
  });
});
