import { createContext, createElement, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { BillingModule, Client } from '../index';
import { claim, hold, release, type BillingUser, type Held } from './held-client';

export type { BillingUser } from './held-client';

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

const BillingContext = createContext<Client | null>(null);

/**
 * Makes one billing client for the tree below it, so any component reaches it
 * with {@link useBilling} instead of a prop. The client is disposed when the
 * provider unmounts, and replaced in place (the old one disposed) when `user`
 * changes; the hooks below follow the new client without remounting.
 *
 * Exactly one client is live per mounted provider, under React 18 and 19,
 * in StrictMode too: a render React throws away (StrictMode's first render
 * under React 18) may make a client, which is disposed at the next commit. On
 * the server (`renderToString`) it makes a client for the render, which sends
 * nothing unless called; with a
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
  // Made in render, so the first render (the server's, and hydration's) already has its data. The ref
  // only spares a re-render a new client: a render React throws away (and its ref with it) leaves its
  // client unclaimed, and held-client.ts disposes it after the next commit.
  if (held.current === null || held.current.disposed || !Object.is(held.current.user, user ?? null)) {
    held.current = hold(create, user ?? null);
  }
  const current = held.current;
  useEffect(() => {
    // Shown again after its effects were cleaned up (an <Activity> hidden, then visible), or committed
    // after another provider's commit swept it (two roots rendering at once): render again, which
    // makes a new one.
    if (current.disposed) return void renew((n) => n + 1);
    claim(current);
    return () => release(current);
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
