import { createContext, createElement, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { BillingModule, Client } from '../index';

/** Who a provider's client is for: an id (not a token), `null` or absent for an app with one user. */
export type BillingUser = string | number | null | undefined;

/**
 * Props of {@link BillingProvider}.
 *
 * @example
 * ```ts
 * import { createClient } from 'unified-billing';
 *
 * const props: BillingProviderProps = {
 *   create: () => createClient({ baseUrl: 'https://api.example.com', appKey: 'poster' }),
 *   user: 'alice',
 * };
 * ```
 */
export interface BillingProviderProps {
  /**
   * Makes the client: `() => createClient(options)`. Called on mount and when
   * `user` changes (with the function given in that render), never on another
   * render, so an inline arrow is fine. The provider owns what it returns and
   * disposes it.
   */
  readonly create: (user: BillingUser) => Client;
  /**
   * Who is signed in. A different value disposes the client and makes a new
   * one in place: one client holds one user's quota and headers.
   */
  readonly user?: BillingUser;
  readonly children?: ReactNode;
}

// One client and the user it was made for. `claims` counts the mounted providers using it, so the
// unmount React's StrictMode simulates (cleanup, then the effect again, synchronously) does not
// dispose it: the dispose waits a microtask and is dropped when the effect claimed it again.
interface Held {
  readonly client: Client;
  readonly user: BillingUser;
  claims: number;
  disposed: boolean;
}

const BillingContext = createContext<Client | null>(null);

function hold(create: BillingProviderProps['create'], user: BillingUser): Held {
  return { client: create(user), user, claims: 0, disposed: false };
}

/**
 * Makes one billing client for the tree below it, so any component reaches it
 * with {@link useBilling} instead of a prop. The client is disposed when the
 * provider unmounts, and replaced in place (the old one disposed) when `user`
 * changes; the hooks below follow the new client without remounting.
 *
 * StrictMode's double render and double mount make one client, not two, and
 * never dispose the one on screen. On the server (`renderToString`) it makes a
 * client for the render, which sends nothing unless called; with a
 * `bootstrap` in its options, the hooks render its quota into the HTML.
 *
 * @example
 * ```tsx
 * import { createClient } from 'unified-billing';
 * import { BillingProvider, useBilling, useUsage } from 'unified-billing/react';
 *
 * function App({ userId, token }: { userId: string; token: string }) {
 *   const create = () =>
 *     createClient({ baseUrl: 'https://api.example.com', appKey: 'poster', headers: { Authorization: `Bearer ${token}` } });
 *   return (
 *     <BillingProvider create={create} user={userId}>
 *       <Quota />
 *     </BillingProvider>
 *   );
 * }
 *
 * function Quota() {
 *   const usage = useUsage(useBilling());
 *   return <span>{usage === null ? 'Loading…' : `${usage.freeRemaining} free`}</span>;
 * }
 * ```
 */
export function BillingProvider({ create, user, children }: BillingProviderProps): ReactNode {
  const held = useRef<Held | null>(null);
  const [, renew] = useState(0);
  // Made in render, so the first render (the server's, and hydration's) already has its data. A ref,
  // not a state initializer: React calls those twice in StrictMode and drops one result, a client
  // nobody would dispose.
  if (held.current === null || held.current.disposed || !Object.is(held.current.user, user ?? null)) {
    held.current = hold(create, user ?? null);
  }
  const current = held.current;
  useEffect(() => {
    // Shown again after its effects were cleaned up (an <Activity> hidden, then visible): that client
    // is disposed, so render again, which makes a new one.
    if (current.disposed) return void renew((n) => n + 1);
    current.claims += 1;
    return () => {
      current.claims -= 1;
      queueMicrotask(() => {
        if (current.claims > 0 || current.disposed) return;
        current.disposed = true;
        current.client.billing.dispose();
      });
    };
  }, [current]);
  return createElement(BillingContext.Provider, { value: current.client }, children);
}

/**
 * The billing module of the nearest {@link BillingProvider}, for the hooks
 * (`useUsage(useBilling())`) and for calls (`useBilling().consume()`). It
 * changes when the provider's user does. Throws when no provider is above.
 *
 * @example
 * ```tsx
 * function ExportButton() {
 *   const billing = useBilling();
 *   const { canProceed } = useBillingCheck(billing);
 *   return <button disabled={!canProceed} onClick={() => void billing.consume().catch(() => undefined)}>Export</button>;
 * }
 * ```
 */
export function useBilling(): BillingModule {
  const client = useContext(BillingContext);
  if (client === null) throw new Error('useBilling() needs a <BillingProvider> above the component that calls it');
  return client.billing;
}
