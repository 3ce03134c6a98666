// What React Native installs before an app's first line runs (its InitializeCore) and
// the bare Hermes VM (hermes-engine-cli) lacks: only these, each named with where React
// Native sets it up. Metro runs this module before the app's (metro.config.js), as it
// runs InitializeCore; Metro's own prelude and polyfills (process.env.NODE_ENV, `global`,
// React Native's console over `print`, ErrorUtils) come with the bundle.
// URL is installed by the app (installUrl) after it checked what createClient says
// without one. Not shimmed, on purpose: performance, crypto, TextEncoder, structuredClone,
// EventTarget, BroadcastChannel, DOMException: the library must do without them or say
// which one it needs.
/* global print, HermesInternal */
const g = globalThis;

// console: React Native's polyfill over nativeLoggingHook. Every line is kept, and the
// check reads them: an error logged is a failure.
export const logged = [];
const log = (level) =>
  function () {
    logged.push(`${level}: ${Array.prototype.map.call(arguments, String).join(' ')}`);
  };
g.console = { log: log('log'), info: log('info'), debug: log('debug'), warn: log('warn'), error: log('error') };

// clearTimeout: React Native's (its TimerManager, JSTimers before it) ignores an id that
// is not a timer's, as browsers and Node do; the Hermes CLI's throws "Argument to
// clearTimeout must be a number" for `clearTimeout(undefined)`.
const cliClearTimeout = g.clearTimeout;
g.clearTimeout = function (id) {
  if (typeof id === 'number') cliClearTimeout(id);
};

// setInterval / clearInterval: React Native's timers (setUpTimers); the Hermes CLI has
// setTimeout and clearTimeout only.
const intervals = {};
let nextInterval = 1;
g.setInterval = function (callback, ms) {
  const id = nextInterval++;
  const tick = () => {
    intervals[id] = setTimeout(tick, ms);
    callback();
  };
  intervals[id] = setTimeout(tick, ms);
  return id;
};
g.clearInterval = function (id) {
  clearTimeout(intervals[id]);
  delete intervals[id];
};

// AbortController / AbortSignal: React Native's `abort-controller` polyfill (setUpXHR).
function AbortSignal() {
  this.aborted = false;
  this.reason = undefined;
  this.onabort = null;
  this._listeners = [];
}
AbortSignal.prototype.addEventListener = function (type, listener, options) {
  if (type === 'abort') this._listeners.push({ listener, once: Boolean(options && options.once) });
};
AbortSignal.prototype.removeEventListener = function (type, listener) {
  this._listeners = this._listeners.filter((entry) => entry.listener !== listener);
};
AbortSignal.prototype.throwIfAborted = function () {
  if (this.aborted) throw this.reason;
};
function AbortController() {
  this.signal = new AbortSignal();
}
AbortController.prototype.abort = function (reason) {
  const signal = this.signal;
  if (signal.aborted) return;
  signal.aborted = true;
  signal.reason = reason === undefined ? new Error('This operation was aborted') : reason;
  const event = { type: 'abort', target: signal };
  const listeners = signal._listeners;
  signal._listeners = listeners.filter((entry) => !entry.once);
  if (typeof signal.onabort === 'function') signal.onabort(event);
  listeners.forEach((entry) => entry.listener.call(signal, event));
};
g.AbortController = AbortController;
g.AbortSignal = AbortSignal;

// fetch: React Native's (whatwg-fetch, setUpXHR). The app passes its own as the `fetch`
// option (the fake backend); this one only counts calls, and the check wants none.
export const globalFetch = { calls: 0 };
g.fetch = function () {
  globalFetch.calls += 1;
  return Promise.reject(new TypeError('Network request failed'));
};

// window and navigator: React Native sets `window = global` (setUpGlobals) and
// `navigator.product = 'ReactNative'` (setUpNavigator), with no addEventListener.
g.window = g;
g.navigator = { product: 'ReactNative' };

// Unhandled rejections: React Native reports them through Hermes' tracker (LogBox);
// here they are kept for the check, as an unhandled error fails it.
export const unhandled = [];
HermesInternal.enablePromiseRejectionTracker({
  allRejections: true,
  onUnhandled: (id, error) => unhandled.push(String((error && error.stack) || error)),
});

// URL: React Native's own (Libraries/Blob/URL.js), whose getters are regular expressions
// over the string; the ones of 0.86 transcribed (protocol, username and password are
// implemented since 0.86). Only what an absolute URL needs: no base, no searchParams.
export function installUrl() {
  const match = (url, pattern) => url.match(pattern);
  function URL(url) {
    this._url = url;
    if (!url.endsWith('/') && !url.includes('?') && !url.includes('#')) {
      const afterProtocol = url.split('://')[1];
      if (afterProtocol && !afterProtocol.includes('/')) this._url += '/';
    }
  }
  const getters = {
    hash: (url) => (match(url, /#([^/]*)/) ? `#${match(url, /#([^/]*)/)[1]}` : ''),
    host: (url) => {
      const host = match(url, /^https?:\/\/(?:[^@]+@)?([^:/?#]+)/);
      const port = match(url, /:(\d+)(?=[/?#]|$)/);
      return host ? host[1] + (port ? `:${port[1]}` : '') : '';
    },
    hostname: (url) => (match(url, /^https?:\/\/(?:[^@]+@)?([^:/?#]+)/) || ['', ''])[1],
    href: (url) => url,
    origin: (url) => (match(url, /^(https?:\/\/[^/]+)/) || ['', ''])[1],
    password: (url) => (match(url, /https?:\/\/.*:(.*)@/) || ['', ''])[1],
    pathname: (url) => (match(url, /https?:\/\/[^/]+(\/[^?#]*)?/) || ['', '/'])[1] || '/',
    port: (url) => (match(url, /:(\d+)(?=[/?#]|$)/) || ['', ''])[1],
    protocol: (url) =>
      match(url, /^([a-zA-Z][a-zA-Z\d+\-.]*):/) ? `${match(url, /^([a-zA-Z][a-zA-Z\d+\-.]*):/)[1]}:` : '',
    search: (url) => (match(url, /\?([^#]*)/) ? `?${match(url, /\?([^#]*)/)[1]}` : ''),
    username: (url) => (match(url, /^https?:\/\/([^:@]+)(?::[^@]*)?@/) || ['', ''])[1],
  };
  Object.keys(getters).forEach((name) =>
    Object.defineProperty(URL.prototype, name, {
      get() {
        return getters[name](this._url);
      },
    }),
  );
  URL.prototype.toString = function () {
    return this._url;
  };
  URL.prototype.toJSON = URL.prototype.toString;
  g.URL = URL;
}

export const output = (value) => print(`HERMES_RESULT ${JSON.stringify(value)}`);
