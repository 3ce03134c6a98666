import { Readable } from 'node:stream';
import crossFetch from 'cross-fetch';
import nock from 'nock';
import { FaultQueue } from '../../lib/testing/faults';
import { ReferenceState } from '../../lib/testing/reference-state';
import type {
  ChargeRecord,
  Fault,
  ReferenceUser,
  ReferenceUserPatch,
  ReferenceUserSnapshot,
} from '../../lib/testing/types';
import type { FetchLike } from '../../lib/types';
import { answerCall, type WireAnswer } from './wire-answer';

/** cross-fetch, turning an answer marked as a reset into the error a reset socket gives. */
export const nockFetch: FetchLike = async (input, init) => {
  const response = await crossFetch(input, init);
  if (response.headers.get(RESET_HEADER) === null) return response;
  throw Object.assign(new TypeError(`request to ${input} failed, reason: socket hang up`), { code: 'ECONNRESET' });
};

/** What the fault matrix needs of a backend; the reference backend has it too. */
export interface BackendUnderTest {
  readonly url: string;
  failNext(path: string, n: number, fault: Fault): void;
  charges(): ChargeRecord[];
  addUser(user: ReferenceUser): void;
  setUser(token: string, patch: ReferenceUserPatch): void;
  getUser(token: string, module?: string): ReferenceUserSnapshot;
  close(): Promise<void>;
}

type NockReply = [number, string | Readable, Record<string, string>];

const JSON_TYPE = { 'Content-Type': 'application/json' };

// A reset is marked in the answer and raised by `nockFetch`: nock's mock
// socket can emit a thrown reset on a socket nobody listens to any more.
const RESET_HEADER = 'x-nock-reset';

function reset(): NockReply {
  return [599, '', { [RESET_HEADER]: '1' }];
}

// The start of a body, then silence: the client's timeout must cover the body.
function stalledBody(): Readable {
  const body = new Readable({ read: () => undefined });
  body.push('{"code":0,');
  return body;
}

function asReply(answer: WireAnswer): NockReply {
  return [answer.status, JSON.stringify(answer.body), JSON_TYPE];
}

async function withFault(fault: Fault | undefined, handle: () => WireAnswer): Promise<NockReply> {
  switch (fault?.kind) {
    case undefined:
      return asReply(handle());
    case 'drop':
      return reset();
    case 'dropAfterApply':
      handle();
      return reset();
    case 'status': {
      const headers: Record<string, string> = { ...JSON_TYPE, Date: new Date().toUTCString() };
      if (fault.retryAfter !== undefined) headers['Retry-After'] = fault.retryAfter;
      return [fault.status, JSON.stringify({ code: fault.status, message: 'injected failure', data: null }), headers];
    }
    case 'delay':
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
      return asReply(handle());
    case 'malformed':
      return [fault.status ?? 200, fault.body, { 'Content-Type': fault.contentType ?? 'application/json' }];
    case 'stall':
      return [200, stalledBody(), JSON_TYPE];
  }
}

/**
 * The reference backend's state and fault vocabulary behind nock instead of a
 * socket: the same scenarios run through Node's http client with no server.
 */
export function startNockBackend(url: string, users: readonly ReferenceUser[] = []): BackendUnderTest {
  const state = new ReferenceState(users);
  const faults = new FaultQueue();
  const reply = function (this: nock.ReplyFnContext, uri: string, body: unknown) {
    const parsed = new URL(uri, url);
    const fault = faults.take(parsed.pathname);
    return withFault(fault, () =>
      answerCall(state, {
        method: this.req.method ?? 'GET',
        path: parsed.pathname,
        query: parsed.searchParams,
        authorization: this.req.headers['authorization'],
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  };
  const scope = nock(url).persist();
  scope.get(() => true).reply(reply);
  scope.post(() => true).reply(reply);
  return {
    url,
    failNext: (path, n, fault) => faults.add(path, n, fault),
    charges: () => state.charges(),
    addUser: (user) => state.addUser(user),
    setUser: (token, patch) => state.setUser(token, patch),
    getUser: (token, module) => state.snapshot(token, module),
    close: async () => {
      scope.persist(false);
      nock.abortPendingRequests();
      nock.cleanAll();
    },
  };
}
