import { act, createElement as h, StrictMode, Suspense, useEffect, useRef, version, type ReactNode } from 'react';
import { renderToString, version as domVersion } from 'react-dom/server';
import { createClient, type Client, type ClientOptions } from '../../lib';
import { BillingProvider, useBilling, useBillingStatus, useUsage, type BillingUser } from '../../lib/react';
import { fixture, PATH, UserBackend } from '../helpers/client-fixture';
import { VirtualClock } from '../helpers/virtual-clock';
import { reactRoot } from './react-root';

// Issue 25 §4: <BillingProvider> + useBilling(), one client per provider, a new one when the user changes.
// Issue 31 §1: the same under every React of the peer range; provider.spec.ts runs these cases under
// React 19, provider-react-18.spec.ts under React 18.3.

const isDisposed = (client: Client) => {
  try {
    client.billing.check();
    return false;
  } catch {
    return true;
  }
};

/** A `create` for the provider over one backend per user, recording every client it made. */
function factory(
  quotas: Record<string, { freeRemaining: number; balance: number }>,
  options: Partial<ClientOptions> = {},
) {
  const backends = new Map(Object.entries(quotas).map(([user, quota]) => [user, new UserBackend(quota)]));
  const made: Array<{ user: BillingUser; client: Client }> = [];
  const create = (user: BillingUser) => {
    const backend = backends.get(String(user))!;
    const client = createClient({
      baseUrl: 'http://billing.test',
      appKey: 'poster',
      fetch: backend.fetch,
      scheduler: new VirtualClock(),
      ...options,
    });
    made.push({ user, client });
    return client;
  };
  const live = () => made.filter(({ client }) => !isDisposed(client)).map(({ user }) => user);
  return { create, made, live, backend: (user: string) => backends.get(user)! };
}

const mounts = { count: 0 };

function Quota() {
  const billing = useBilling();
  const usage = useUsage(billing);
  const { loaded } = useBillingStatus(billing);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) mounts.count += 1;
    first.current = false;
  }, []);
  useEffect(() => {
    void billing.getUsage().catch(() => undefined);
  }, [billing]);
  return h('p', null, loaded && usage ? `${usage.freeRemaining} free, ${usage.creditsBalance} credits` : 'loading');
}

/** Lets the provider's deferred dispose (a microtask after the effect's cleanup) run. */
const settled = () => act(async () => await new Promise((resolve) => setImmediate(resolve)));

/**
 * Registers the provider's cases for the React whose version starts with `reactVersion`.
 * `strictMountMakes`: the clients a StrictMode mount makes. React 18 drops the first of its two
 * renders with its hooks, so that render's client is made and then disposed at the commit; React 19
 * keeps the first render's hooks for the second and makes one.
 */
export function describeProvider(reactVersion: string, { strictMountMakes }: { strictMountMakes: number }): void {
  const dom = reactRoot();
  beforeEach(() => (mounts.count = 0));

  describe(`<BillingProvider> and useBilling() under React ${reactVersion}x`, () => {
    it(`runs React ${reactVersion}x (react and react-dom)`, () => {
      expect([version, domVersion].map((v) => v.startsWith(reactVersion))).toEqual([true, true]);
    });

    describe.each([
      ['without StrictMode', (node: ReactNode) => node],
      ['in StrictMode', (node: ReactNode) => h(StrictMode, null, node)],
    ])('%s: exactly one live client', (_mode, wrap) => {
      it('after mount, after a user switch, and none after unmount', async () => {
        const { create, made, live } = factory({
          alice: { freeRemaining: 3, balance: 10 },
          bob: { freeRemaining: 0, balance: 7 },
        });
        const app = (user: string) => wrap(h(BillingProvider, { create, user }, h(Quota)));
        await dom.render(app('alice'));
        await settled();
        expect(live()).toEqual(['alice']);
        expect(dom.text()).toBe('3 free, 10 credits');
        await dom.render(app('bob'));
        await settled();
        expect(live()).toEqual(['bob']);
        expect(dom.text()).toBe('0 free, 7 credits');
        await dom.render(app('bob')); // a re-render with the same user makes none
        await settled();
        expect(live()).toEqual(['bob']);
        await dom.render(null);
        await settled();
        expect(live()).toEqual([]);
        // Each client made was for the user shown when it was made: none for a user not asked for.
        expect(new Set(made.map(({ user }) => user))).toEqual(new Set(['alice', 'bob']));
      });

      it('a mount that suspends, its render thrown away, leaves one client once shown and none after', async () => {
        const { create, live } = factory({ alice: { freeRemaining: 3, balance: 10 } });
        let release = () => {};
        const ready = new Promise<void>((resolve) => (release = resolve));
        let loaded = false;
        void ready.then(() => (loaded = true));
        // A sibling below the provider that is not ready on the first render: React drops that render.
        function Slow(): ReactNode {
          if (!loaded) throw ready;
          return 'ready';
        }
        const app = wrap(
          h(Suspense, { fallback: 'wait' }, h(BillingProvider, { create, user: 'alice' }, h(Quota), h(Slow))),
        );
        await dom.render(app);
        await settled();
        expect(dom.text()).toBe('wait');
        await act(async () => {
          release();
          await ready;
        });
        await settled();
        expect(dom.text()).toBe('3 free, 10 credits' + 'ready');
        expect(live()).toEqual(['alice']);
        await dom.render(null);
        await settled();
        expect(live()).toEqual([]);
      });
    });

    it('gives the tree below one client, made once across re-renders, disposed on unmount', async () => {
      const { create, made, live, backend } = factory({ alice: { freeRemaining: 3, balance: 10 } });
      const app = (label: string) =>
        h(BillingProvider, { create: (user) => create(user), user: 'alice' }, h(Quota), label);
      await dom.render(app('a'));
      await settled();
      expect(dom.text()).toBe('3 free, 10 credits' + 'a');
      await dom.render(app('b')); // a new inline `create` on each render makes no new client
      expect(made).toHaveLength(1);
      expect(live()).toEqual(['alice']);
      await act(async () => void (await made[0]!.client.billing.consume()));
      expect(dom.text()).toBe('2 free, 10 credits' + 'b');
      expect(backend('alice').charged).toHaveLength(1);
      await dom.render(null);
      await settled();
      expect(live()).toEqual([]);
    });

    it('makes a new client in place when the user changes: the old one disposed, the tree not remounted', async () => {
      const { create, made, live } = factory({
        alice: { freeRemaining: 3, balance: 10 },
        bob: { freeRemaining: 0, balance: 7 },
      });
      const app = (user: string) => h(BillingProvider, { create, user }, h(Quota));
      await dom.render(app('alice'));
      await settled();
      expect(dom.text()).toBe('3 free, 10 credits');
      await dom.render(app('bob'));
      await settled();
      expect(dom.text()).toBe('0 free, 7 credits');
      expect(made.map(({ user }) => user)).toEqual(['alice', 'bob']);
      expect(live()).toEqual(['bob']);
      expect(mounts.count).toBe(1);
    });

    it('in StrictMode: one client for the double render and double mount, live while mounted, one load', async () => {
      const { create, made, live, backend } = factory({ alice: { freeRemaining: 3, balance: 10 } });
      await dom.render(h(StrictMode, null, h(BillingProvider, { create, user: 'alice' }, h(Quota))));
      await settled();
      expect(made).toHaveLength(strictMountMakes);
      expect(live()).toEqual(['alice']);
      expect(dom.text()).toBe('3 free, 10 credits');
      // The effect ran twice on the one client: its second load joined the first.
      expect(backend('alice').requests.filter((request) => request.path === PATH.count)).toHaveLength(1);
      await act(async () => void (await made[made.length - 1]!.client.billing.consume()));
      expect(backend('alice').charged).toHaveLength(1);
      await dom.render(null);
      await settled();
      expect(live()).toEqual([]);
    });

    it('in StrictMode, a user change still leaves exactly the new client live', async () => {
      const { create, live } = factory({
        alice: { freeRemaining: 3, balance: 10 },
        bob: { freeRemaining: 0, balance: 7 },
      });
      const app = (user: string) => h(StrictMode, null, h(BillingProvider, { create, user }, h(Quota)));
      await dom.render(app('alice'));
      await dom.render(app('bob'));
      await settled();
      expect(live()).toEqual(['bob']);
      expect(dom.text()).toBe('0 free, 7 credits');
    });

    it('renders on the server from a bootstrap in the options, with no request', async () => {
      const server = fixture({ freeRemaining: 3, balance: 10 });
      await server.client.billing.getUsage();
      const bootstrap = JSON.parse(JSON.stringify(server.client.billing.snapshot())) as ReturnType<
        Client['billing']['snapshot']
      >;
      const { create, backend } = factory({ alice: { freeRemaining: 1, balance: 1 } }, { bootstrap });
      function Shown(): ReactNode {
        const usage = useUsage(useBilling());
        return h('p', null, usage ? `${usage.freeRemaining} free` : 'loading');
      }
      const html = renderToString(h(BillingProvider, { create, user: 'alice' }, h(Shown)));
      expect(html).toBe('<p>3 free</p>');
      expect(backend('alice').requests).toEqual([]);
    });

    it('hydrates the server HTML in StrictMode: one live client, none after unmount', async () => {
      const server = fixture({ freeRemaining: 3, balance: 10 });
      await server.client.billing.getUsage();
      const bootstrap = JSON.parse(JSON.stringify(server.client.billing.snapshot())) as ReturnType<
        Client['billing']['snapshot']
      >;
      const { create, live } = factory({ alice: { freeRemaining: 3, balance: 10 } }, { bootstrap });
      function Shown(): ReactNode {
        const usage = useUsage(useBilling());
        return h('p', null, usage ? `${usage.freeRemaining} free` : 'loading');
      }
      const app = h(StrictMode, null, h(BillingProvider, { create, user: 'alice' }, h(Shown)));
      // The page as the server sent it: <p>3 free</p>, built by hand (the fake DOM parses no HTML).
      const doc = document as unknown as { createElement(tag: string): Node; createTextNode(text: string): Node };
      const container = doc.createElement('div');
      container.appendChild(doc.createElement('p')).appendChild(doc.createTextNode('3 free'));
      const { hydrateRoot } = await import('react-dom/client');
      const root = await act(async () => hydrateRoot(container as unknown as Element, app));
      await settled();
      expect(container.textContent).toBe('3 free');
      expect(live()).toEqual(['alice']);
      await act(async () => root.unmount());
      await settled();
      expect(live()).toEqual([]);
    });

    it('useBilling() outside a provider says what is missing', () => {
      function Orphan(): ReactNode {
        useBilling();
        return null;
      }
      expect(() => renderToString(h(Orphan))).toThrow('useBilling() needs a <BillingProvider> above');
    });
  });
}
