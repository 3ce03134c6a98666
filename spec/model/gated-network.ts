import { createBackendCore } from '../../lib/testing/backend/backend-core';
import { inProcessFetch } from '../../lib/testing/http/in-process-fetch';
import type { ReferenceState } from '../../lib/testing/backend/reference-state';
import type { FetchLike } from '../../lib/shared/types';

/** The backend's answer: the HTTP status and the JSON envelope. */
export interface WireAnswer {
  readonly status: number;
  readonly body: { readonly code: number; readonly data: unknown };
}

/** The request as it will reach the backend (without the client's signal: the backend keeps what it received). */
interface WireCall {
  readonly url: string;
  readonly init: RequestInit;
}

/** Where an exchange is: before the backend, answered (not yet at the client), at the client, or cut. */
export type Stage = 'requested' | 'answered' | 'delivered' | 'aborted';

/** One request of one tab, from the moment the client sent it. */
export interface Exchange {
  readonly index: number;
  readonly tab: number;
  readonly method: string;
  readonly path: string;
  readonly externalId: string | undefined;
  /** Event counter and virtual time when the client sent it. */
  readonly sentEvent: number;
  readonly sentAt: number;
  stage: Stage;
  /** Held before the backend; released, its answer is held next. */
  holdRequest: boolean;
  /** Answered by the backend, held before the client. */
  holdAnswer: boolean;
  answer?: WireAnswer;
  /** Backend version when the backend answered. */
  appliedVersion?: number;
  appliedAt?: number;
  deliveredEvent?: number;
  deliveredAt?: number;
  resolve?: (response: Response) => void;
  call?: WireCall;
}

/** What the network needs to know of the world around it. */
export interface NetworkHooks {
  /** A monotonic counter shared with the calls, to order sends, deliveries and settlements. */
  event(): number;
  now(): number;
  tabBusy(tab: number): boolean;
  tabDead(tab: number): boolean;
  /** The backend just answered `exchange` (state already changed). */
  applied(exchange: Exchange): void;
}

const abortError = () => Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });

function externalIdOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  const parsed = JSON.parse(body) as { external_id?: unknown };
  return typeof parsed.external_id === 'string' ? parsed.external_id : undefined;
}

/**
 * A network in front of an in-process reference backend where the model
 * decides when each request reaches the backend and when each answer reaches
 * its tab. Unheld traffic flows at the next `flush()`; a busy tab gets its
 * answers once free, a dead tab never; an abort cuts an exchange at once
 * (before the backend, the request never arrives).
 */
export class GatedNetwork {
  readonly exchanges: Exchange[] = [];
  private readonly armed = new Map<string, Array<'request' | 'answer'>>();
  private readonly backend: ReturnType<typeof inProcessFetch>;

  constructor(
    state: ReferenceState,
    private readonly hooks: NetworkHooks,
  ) {
    this.backend = inProcessFetch(createBackendCore({ state }));
  }

  /** The next request on `path` (any tab) waits before the backend, or its answer before the client. */
  holdNext(path: string, stage: 'request' | 'answer'): void {
    this.armed.set(path, [...(this.armed.get(path) ?? []), stage]);
  }

  get armedCount(): number {
    return [...this.armed.values()].reduce((n, list) => n + list.length, 0);
  }

  disarm(): void {
    this.armed.clear();
  }

  /** Exchanges held on purpose that can still move, oldest first. */
  held(): Exchange[] {
    return this.exchanges.filter(
      (e) =>
        (e.stage === 'requested' && e.holdRequest) ||
        (e.stage === 'answered' && e.holdAnswer && !this.hooks.tabDead(e.tab)),
    );
  }

  /** Releases a held exchange: a held request reaches the backend (its answer stays held), a held answer goes on. */
  release(exchange: Exchange): void {
    if (exchange.stage === 'requested') {
      exchange.holdRequest = false;
      exchange.holdAnswer = true;
    } else {
      exchange.holdAnswer = false;
    }
  }

  fetchFor(tab: number): FetchLike {
    return (input, init = {}) => {
      const url = new URL(input);
      const hold = this.armed.get(url.pathname)?.shift();
      const exchange: Exchange = {
        index: this.exchanges.length,
        tab,
        method: init.method ?? 'GET',
        path: url.pathname,
        externalId: externalIdOf(init.body),
        sentEvent: this.hooks.event(),
        sentAt: this.hooks.now(),
        stage: 'requested',
        holdRequest: hold === 'request',
        holdAnswer: hold === 'answer',
      };
      this.exchanges.push(exchange);
      const { signal: _signal, ...rest } = init;
      exchange.call = { url: input, init: rest };
      return new Promise<Response>((resolve, reject) => {
        const signal = init.signal ?? undefined;
        if (signal?.aborted === true) {
          exchange.stage = 'aborted';
          return reject(abortError());
        }
        signal?.addEventListener(
          'abort',
          () => {
            if (exchange.stage === 'delivered' || exchange.stage === 'aborted') return;
            exchange.stage = 'aborted';
            reject(abortError());
          },
          { once: true },
        );
        exchange.resolve = resolve;
      });
    };
  }

  /** Moves every exchange that is not held one stage on, in the order sent; returns how many moved. */
  async flush(): Promise<number> {
    let moved = 0;
    for (const e of this.exchanges) {
      if (e.stage === 'requested' && !e.holdRequest && e.call !== undefined) {
        // One at a time, so that the backend's versions follow the order of arrival.
        const response = await this.backend(e.call.url, e.call.init);
        e.answer = { status: response.status, body: JSON.parse(await response.text()) as WireAnswer['body'] };
        e.appliedAt = this.hooks.now();
        // Cut meanwhile by its client, it still reached the backend.
        if (e.stage === 'requested') e.stage = 'answered';
        this.hooks.applied(e);
        moved += 1;
      }
      if (e.stage === 'answered' && !e.holdAnswer && !this.hooks.tabBusy(e.tab) && !this.hooks.tabDead(e.tab)) {
        e.stage = 'delivered';
        e.deliveredEvent = this.hooks.event();
        e.deliveredAt = this.hooks.now();
        const text = JSON.stringify(e.answer?.body);
        const response = { status: e.answer?.status ?? 500, headers: { get: () => null }, text: async () => text };
        e.resolve?.(response as unknown as Response);
        moved += 1;
      }
    }
    return moved;
  }
}
