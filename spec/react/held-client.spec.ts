import { createClient, type Client } from '../../lib';
import { claim, hold, release } from '../../lib/react/held-client';
import { VirtualClock } from '../helpers/virtual-clock';

// Issue 31 §1: what the provider's clients go through between render and commit, without React, so
// the orders React can produce are each written out.

const made: Client[] = [];
const create = () => {
  const client = createClient({
    baseUrl: 'http://billing.test',
    appKey: 'poster',
    fetch: () => new Promise<Response>(() => undefined),
    scheduler: new VirtualClock(),
  });
  made.push(client);
  return client;
};
const isDisposed = (client: Client) => {
  try {
    client.billing.check();
    return false;
  } catch {
    return true;
  }
};
const microtasks = () => new Promise((resolve) => setImmediate(resolve));
const globals = globalThis as { window?: unknown };

beforeAll(() => (globals.window = globalThis)); // a browser: what render makes is listed
afterAll(() => delete globals.window);
afterEach(() => made.splice(0).forEach((client) => client.billing.dispose()));

describe('clients made in render, claimed at commit', () => {
  it('a commit disposes the client of a render dropped before it, and spares one made after it', async () => {
    const dropped = hold(create, 'alice'); // React 18 StrictMode's first mount render
    const kept = hold(create, 'alice');
    claim(kept);
    const later = hold(create, 'bob'); // a render begun after the commit, in the same task
    await microtasks();
    expect([dropped, kept, later].map(({ client }) => isDisposed(client))).toEqual([true, false, false]);
    // Its own commit claims it; a render dropped before that one is then disposed.
    const droppedAgain = hold(create, 'carol');
    const next = hold(create, 'carol');
    claim(later);
    claim(next);
    await microtasks();
    expect([later, droppedAgain, next].map(({ client }) => isDisposed(client))).toEqual([false, true, false]);
  });

  it('a release disposes a microtask later, unless claimed again (StrictMode remount)', async () => {
    const held = hold(create, 'alice');
    claim(held);
    release(held);
    claim(held);
    await microtasks();
    expect(isDisposed(held.client)).toBe(false);
    release(held);
    await microtasks();
    expect(isDisposed(held.client)).toBe(true);
  });

  it('on a server (no window) nothing is listed, so no commit elsewhere disposes it', async () => {
    delete globals.window;
    const server = hold(create, 'alice');
    globals.window = globalThis;
    claim(hold(create, 'bob'));
    await microtasks();
    expect(isDisposed(server.client)).toBe(false);
  });
});
