import { Readable } from 'node:stream';
import nock from 'nock';
import { FaultQueue } from '../../lib/testing/faults';
import { ReferenceState } from '../../lib/testing/reference-state';
import type { ChargeRecord, Fault, ReferenceUser, ReferenceUserPatch, ReferenceUserSnapshot } from '../../lib/testing/types';
import { answerCall, type WireAnswer } from './wire-answer';

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

function reset(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
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
      throw reset();
    case 'dropAfterApply':
      handle();
      throw reset();
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
  const reply = function (this: { req: { method: string; headers: Record<string, string | undefined> } }, uri: string, body: unknown) {
    const parsed = new URL(uri, url);
    const fault = faults.take(parsed.pathname);
    return withFault(fault, () =>
      answerCall(state, {
        method: this.req.method,
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
