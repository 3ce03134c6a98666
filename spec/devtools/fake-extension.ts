import type { DevtoolsConnectOptions, DevtoolsExtension, Json } from '../../lib/devtools';

/** What a fake Redux DevTools extension was told, in order. */
export interface ExtensionLog {
  readonly connects: DevtoolsConnectOptions[];
  readonly messages: Array<
    { kind: 'init'; state: Json } | { kind: 'send'; action: { type: string } & Record<string, Json>; state: Json }
  >;
  subscribed: number;
  unsubscribed: number;
  /** Plays the extension's UI dispatching back (a jump), to every listener subscribed. */
  dispatchBack(message: unknown): void;
}

/** A fake of `window.__REDUX_DEVTOOLS_EXTENSION__` that records everything it is given. */
export function fakeExtension(): { extension: DevtoolsExtension; log: ExtensionLog } {
  const listeners: Array<(message: unknown) => void> = [];
  const log: ExtensionLog = {
    connects: [],
    messages: [],
    subscribed: 0,
    unsubscribed: 0,
    dispatchBack: (message) => listeners.forEach((listener) => listener(message)),
  };
  const extension: DevtoolsExtension = {
    connect(options) {
      log.connects.push(options);
      return {
        init: (state) => void log.messages.push({ kind: 'init', state }),
        send: (action, state) => void log.messages.push({ kind: 'send', action, state }),
        subscribe: (listener) => {
          log.subscribed += 1;
          listeners.push(listener);
          return () => listeners.splice(listeners.indexOf(listener), 1);
        },
        unsubscribe: () => {
          log.unsubscribed += 1;
          listeners.splice(0);
        },
      };
    },
  };
  return { extension, log };
}
