import type { Observer, Subscribable } from 'rxjs';
import { BillingError, createClient, refetchOn, reloadSafe, type Client } from '../../lib';
import { startReferenceBackend, type ReferenceBackend } from '../../lib/testing';
import { expectConsole } from '../helpers/expect-console';
import { until } from '../helpers/waiting';

// The React Native globals profile: Node with the globals React Native and Hermes lack removed, and
// `window` and `navigator` as React Native sets them. The quick start, a credit consume, refetchOn({ when })
// over an AppState-like source, reloadSafe() over a synchronous MMKV-like storage and dispose() must all
// work; what cannot work says what to add. (tabSync() is not in the profile: it needs BroadcastChannel.)

const REMOVED = ['crypto', 'structuredClone', 'BroadcastChannel', 'EventTarget', 'DOMException', 'addEventListener'];
const saved = new Map<string, PropertyDescriptor | undefined>();
let savedTimeout: PropertyDescriptor | undefined;

/** Removes (or replaces) one global, remembering it for afterEach. */
function setGlobal(name: string, value?: unknown): void {
  if (!saved.has(name)) saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
  Reflect.deleteProperty(globalThis, name);
  // Some are inherited (Node's globalThis proto): shadowed with undefined where deleting is not enough.
  if (value !== undefined || name in globalThis) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
}

function reactNativeProfile(): void {
  for (const name of REMOVED) setGlobal(name);
  savedTimeout = Object.getOwnPropertyDescriptor(AbortSignal, 'timeout');
  Reflect.deleteProperty(AbortSignal, 'timeout');
  setGlobal('window', globalThis);
  setGlobal('navigator', { product: 'ReactNative' });
}

afterEach(() => {
  for (const [name, descriptor] of saved) {
    Reflect.deleteProperty(globalThis, name);
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
  }
  saved.clear();
  if (savedTimeout) Object.defineProperty(AbortSignal, 'timeout', savedTimeout);
  savedTimeout = undefined;
});

/** React Native's AppState, by hand: `addEventListener('change', …)` returns a subscription with `remove()`. */
class FakeAppState {
  readonly listeners = new Set<(state: string) => void>();
  addEventListener(_type: 'change', listener: (state: string) => void) {
    this.listeners.add(listener);
    return { remove: () => void this.listeners.delete(listener) };
  }
  set(state: string): void {
    this.listeners.forEach((listener) => listener(state));
  }
}

/** The docs' source: each return to the foreground (`active`) is a value. */
const whenActive = (appState: FakeAppState): Subscribable<string> => ({
  subscribe(observer: Partial<Observer<string>>) {
    const subscription = appState.addEventListener('change', (state) => state === 'active' && observer.next?.(state));
    return { unsubscribe: () => subscription.remove() };
  },
});

/** MMKV's synchronous API (getString, set, delete) behind the Storage shape reloadSafe() takes. */
class FakeMMKV {
  readonly values = new Map<string, string>();
  getString = (key: string) => this.values.get(key);
  set = (key: string, value: string) => void this.values.set(key, value);
  delete = (key: string) => void this.values.delete(key);
}
const storageOf = (mmkv: FakeMMKV) => ({
  getItem: (key: string) => mmkv.getString(key) ?? null,
  setItem: (key: string, value: string) => mmkv.set(key, value),
  removeItem: (key: string) => mmkv.delete(key),
});

let backend: ReferenceBackend;
const clients: Client[] = [];
beforeAll(async () => {
  backend = await startReferenceBackend({
    users: [
      { token: 'free', freeRemaining: 1, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 },
      { token: 'credit', freeRemaining: 0, freeTotal: 1, creditsPerUse: 2, creditsBalance: 10 },
    ],
  });
});
afterAll(() => backend.close());
afterEach(() => clients.splice(0).forEach((client) => client.billing.dispose()));

function client(token: string, options: Partial<Parameters<typeof createClient>[0]> = {}): Client {
  const made = createClient({
    baseUrl: backend.url,
    appKey: 'poster',
    headers: { Authorization: `Bearer ${token}` },
    ...options,
  });
  clients.push(made);
  return made;
}

describe('the React Native globals profile (no crypto, structuredClone, BroadcastChannel, EventTarget, DOMException, AbortSignal.timeout or window events)', () => {
  beforeEach(() => {
    backend.reset();
    reactNativeProfile();
  });

  it('the profile is in place', () => {
    expect([typeof crypto, typeof structuredClone, typeof BroadcastChannel, typeof EventTarget]).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
    ]);
    expect(typeof DOMException).toBe('undefined');
    expect(typeof AbortSignal.timeout).toBe('undefined');
    expect((globalThis as { window?: unknown }).window).toBe(globalThis);
    expect(typeof (globalThis as { addEventListener?: unknown }).addEventListener).toBe('undefined');
    expect(navigator.product).toBe('ReactNative');
  });

  it('the quick start with its own externalIds, reloadSafe() over MMKV, a reload, and dispose()', async () => {
    const mmkv = new FakeMMKV();
    const first = client('free', { storage: reloadSafe(storageOf(mmkv)) });
    expect(await first.billing.getUsage()).toMatchObject({ freeRemaining: 1, creditsBalance: 10 });
    expect(first.billing.check()).toMatchObject({ canProceed: true });
    const result = await first.billing.consume({ externalId: 'rn-export-1' });
    expect(result).toEqual({ freeRemaining: 0, isCredit: false, isBlacklisted: false });
    expect(first.billing.getCachedUsage()?.inFreePeriod).toBe(true);
    // The free period was written to the synchronous storage: an app restart finds it.
    expect(mmkv.values.size).toBeGreaterThan(0);
    first.billing.dispose();
    const restarted = client('free', { storage: reloadSafe(storageOf(mmkv)) });
    await restarted.billing.getUsage();
    expect(restarted.billing.getCachedUsage()?.inFreePeriod).toBe(true);
    // In the free period nothing is sent and no id is needed.
    expect(await restarted.billing.consume()).toMatchObject({ isCredit: false });
    expect(backend.charges().map((charge) => charge.externalId)).toEqual(['rn-export-1']);
  });

  it('a credit consume: charged in credits, the balance refreshed', async () => {
    const billing = client('credit').billing;
    await billing.getUsage();
    expect(await billing.consume({ externalId: 'rn-credit-1' })).toEqual({
      freeRemaining: 0,
      isCredit: true,
      isBlacklisted: false,
    });
    await until(() => billing.getCachedUsage()?.creditsBalance === 8, 'the refreshed balance');
    expect(backend.charges()).toEqual([expect.objectContaining({ externalId: 'rn-credit-1', kind: 'credits' })]);
  });

  it('refetchOn({ when }) over AppState: a return to the foreground refetches; dispose() removes the listener', async () => {
    const appState = new FakeAppState();
    const billing = client('credit', { refetch: refetchOn({ when: whenActive(appState) }) }).billing;
    await billing.getUsage();
    expect(appState.listeners.size).toBe(1);
    backend.topUp('credit', 40); // bought on another device
    appState.set('background');
    appState.set('active');
    await until(() => billing.getCachedUsage()?.creditsBalance === 50, 'the refetched balance');
    billing.dispose();
    expect(appState.listeners.size).toBe(0);
  });

  it('refetchOn({ focus, online }) does nothing, with one warning pointing to when over AppState, and nothing unhandled', async () => {
    const warned = expectConsole('warn', /refetchOn\(\{ focus, online \}\) does nothing here.*AppState/);
    const billing = client('credit', { refetch: refetchOn({ focus: true, online: true }) }).billing;
    expect(await billing.getUsage()).toMatchObject({ creditsBalance: 10 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(warned).toHaveLength(1);
  });

  it('without crypto: createClient and a consume with its own externalId work; a consume without one fails, typed, naming the polyfill', async () => {
    const billing = client('credit').billing;
    await billing.getUsage();
    const error = await billing.consume().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BillingError);
    expect(error).toMatchObject({ code: 'invalid_argument' });
    expect((error as Error).message).toContain('react-native-get-random-values');
    expect((error as Error).message).toContain('externalId');
    // Nothing was sent for it, and the client goes on.
    expect(backend.charges()).toEqual([]);
    expect(await billing.consume({ externalId: 'rn-after' })).toMatchObject({ isCredit: true });
  });
});

describe('what a bare Hermes lacks beyond React Native', () => {
  it('without performance: the default scheduler falls back to Date.now, and check() works', async () => {
    setGlobal('performance');
    expect(typeof performance).toBe('undefined');
    const billing = client('credit').billing;
    await billing.getUsage();
    expect(billing.check()).toMatchObject({ canProceed: true });
    expect(await billing.consume({ externalId: 'hermes-1' })).toMatchObject({ isCredit: true });
    expect(billing.check()).toMatchObject({ canProceed: true });
  });

  it('without URL: createClient fails naming URL, not baseUrl', () => {
    setGlobal('URL');
    const error = (() => {
      try {
        client('credit');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({ code: 'invalid_argument' });
    expect((error as Error).message).toMatch(/no global URL.*polyfill/);
    expect((error as Error).message).not.toContain('baseUrl');
  });

  it('without AbortController: createClient fails naming AbortController', () => {
    setGlobal('AbortController');
    expect(() => client('credit')).toThrow(/no global AbortController.*polyfill/);
  });
});
