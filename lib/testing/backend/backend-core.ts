import { Observable } from 'rxjs';
import type { ReferenceBackendHooks } from '../backend-types';
import { isPreflight, preflightAnswer, withCorsHeaders } from './cors';
import type { BackendRequest, BackendResponse, Handled } from './exchange';
import { FaultQueue } from '../faults';
import { bearerToken, handleRequest, isApiPath } from './handle-request';
import { ReferenceState } from './reference-state';
import { firstValues, splitTarget } from './request-target';
import type { Fault, ReferenceUser, RequestRecord } from '../types';
import { jsonAnswer, rawFaultAnswer } from './responses';
import { errorReply, type Reply } from './wire';
import { copyRecord } from './copy-record';
import { realTimeout } from '../real-timers';

// The request log keeps the latest entries only.
const MAX_LOG_ENTRIES = 10_000;

/** Options of the transport-neutral backend. */
export interface BackendCoreOptions {
  users?: readonly ReferenceUser[];
  cors?: boolean;
  /** A state to serve instead of a new one (`users` is then ignored): several cores can share it. */
  state?: ReferenceState;
}

/**
 * The reference backend without a transport: state, hooks, faults, CORS and
 * the request log, and `handle`, the one function every transport runs.
 */
export interface BackendCore {
  readonly hooks: ReferenceBackendHooks;
  /** The `cors` option: whether pages on other origins may read the answers (and the event stream). */
  readonly cors: boolean;
  /**
   * Decides the answer to one request. `fallback` (HTTP only) is offered the
   * requests to unknown paths that got no fault; it returns `true` when it
   * has answered them itself.
   */
  handle(request: BackendRequest, fallback?: () => boolean): Promise<Handled>;
  /** Whether `close()` was called: every request is then dropped. */
  readonly closed: boolean;
  /** Cancels pending delays (their requests are dropped) and tells the listeners. */
  close(): void;
  /** Called once by `close()`, e.g. to end stalled bodies. */
  onClose(listener: () => void): void;
}

/**
 * Builds the transport-neutral reference backend. Throws if a user is invalid.
 */
export function createBackendCore(options: BackendCoreOptions = {}): BackendCore {
  const { users = [], cors = true } = options;
  const state = options.state ?? new ReferenceState(users);
  const faults = new FaultQueue();
  const log: RequestRecord[] = [];
  // Each pending delay: what cancels its timer, and what ends its request.
  const delays = new Map<() => void, (elapsed: boolean) => void>();
  const closeListeners: Array<() => void> = [];
  let closed = false;

  // Real time on purpose, like the HTTP server always did: the delay is the
  // backend's, not the client's, so neither the client's scheduler nor the
  // test's fake timers see it (real-timers.ts).
  const wait = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const cancel = realTimeout(() => {
        delays.delete(cancel);
        resolve(true);
      }, ms);
      delays.set(cancel, resolve);
    });

  const answerOf = (reply: Reply, record: RequestRecord): BackendResponse => {
    record.code = reply.body.code;
    return jsonAnswer(reply);
  };

  const proceed = (
    request: BackendRequest,
    record: RequestRecord,
    params: URLSearchParams,
    fallback?: () => boolean,
  ) => {
    if (fallback !== undefined && !isApiPath(record.path)) {
      try {
        if (fallback()) return Promise.resolve<BackendResponse>({ kind: 'fallback' });
      } catch {
        // A throwing fallback must not take the backend down with it.
        return Promise.resolve(answerOf(errorReply(500, 'internal error'), record));
      }
    }
    return handleRequest(request, record.path, params, state, record).then(
      (reply) => answerOf(reply, record),
      // A client that went away mid-body gets nothing anyway; anything else is our bug.
      () => answerOf(errorReply(500, 'internal error'), record),
    );
  };

  const decide = async (
    request: BackendRequest,
    record: RequestRecord,
    params: URLSearchParams,
    fault: Fault | undefined,
    fallback?: () => boolean,
  ): Promise<BackendResponse> => {
    switch (fault?.kind) {
      case undefined:
        return proceed(request, record, params, fallback);
      case 'drop':
        return { kind: 'drop' };
      case 'status': {
        const headers = fault.retryAfter === undefined ? undefined : { 'Retry-After': fault.retryAfter };
        return answerOf(errorReply(fault.status, 'injected failure', headers), record);
      }
      case 'malformed':
      case 'stall':
        return rawFaultAnswer(fault);
      case 'delay':
        return (await wait(fault.ms)) ? proceed(request, record, params, fallback) : { kind: 'drop' };
      case 'dropAfterApply':
        // Applied, but the client never learns the outcome.
        await proceed(request, record, params);
        return { kind: 'drop' };
    }
  };

  const handle = (request: BackendRequest, fallback?: () => boolean): Promise<Handled> => {
    if (closed) return Promise.resolve({ response: { kind: 'drop' }, record: null });
    // The browser's, not the client's: not logged, and a queued fault waits for the call itself.
    if (cors && isPreflight(request)) return Promise.resolve({ response: preflightAnswer(request), record: null });
    const { path, params } = splitTarget(request.target);
    const record: RequestRecord = {
      method: request.method,
      path,
      query: firstValues(params),
      status: null,
      at: Date.now(),
    };
    const token = bearerToken(request.header('authorization'));
    if (token !== undefined) record.token = token;
    log.push(record);
    // Bounded, so that a long-running playground does not grow without limit.
    if (log.length > MAX_LOG_ENTRIES) log.shift();
    // Taken on arrival, so concurrent requests get faults in arrival order.
    const fault = faults.take(path);
    if (fault !== undefined) record.fault = fault.kind;
    return decide(request, record, params, fault, fallback).then((response) => ({
      response: cors ? withCorsHeaders(request, response) : response,
      record,
    }));
  };

  return {
    handle,
    cors,
    get closed() {
      return closed;
    },
    close() {
      if (closed) return;
      closed = true;
      for (const [cancel, resolve] of delays) {
        cancel();
        resolve(false);
      }
      delays.clear();
      for (const listener of closeListeners.splice(0)) listener();
    },
    onClose: (listener) => {
      closeListeners.push(listener);
    },
    hooks: {
      addUser: (user) => state.addUser(user),
      setUser: (token, patch, module) => state.setUser(token, patch, module),
      getUser: (token, module) => state.snapshot(token, module),
      topUp: (token, credits) => state.topUp(token, credits),
      changes: (token) => {
        state.snapshot(token); // throws for an unknown token, at the call
        return new Observable((subscriber) => state.watch(token, (change) => subscriber.next(change)));
      },
      changeListeners: (token) => state.watching(token),
      charges: () => state.charges(),
      // Not structuredClone: Jest's jsdom environment has none.
      requests: () => log.map(copyRecord),
      clearLog: () => {
        log.length = 0;
      },
      failNext: (path, n, fault) => faults.add(path, n, fault),
      pendingFaults: (path) => faults.pending(path),
      reset: () => {
        state.reset();
        faults.clear();
        log.length = 0;
      },
    },
  };
}
