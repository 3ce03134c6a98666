import type { FetchLike } from '../../lib/types';

/** One request as the fake backend saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** A scripted answer: status, raw body, optional headers. */
export interface Scripted {
  readonly status?: number;
  readonly body: string;
  readonly headers?: Record<string, string>;
}

/** The quota the fake serves and charges, per the contract's wire format. */
export interface FakeQuota {
  isEnabled: boolean;
  freeRemaining: number;
  freeTotal: number;
  creditsPerUse: number;
  balance: number;
  blacklisted: boolean;
}

export const ok = (data: unknown): string => JSON.stringify({ code: 0, message: 'ok', data });
export const coded = (code: number, message = 'no'): string => JSON.stringify({ code, message, data: null });

/**
 * An in-process backend behind a fetch function: it keeps real state, logs
 * every request, can hold answers until released, and can serve scripted
 * answers per path. Used where a test needs exact control of timing.
 */
export class FakeBackend {
  readonly requests: SeenRequest[] = [];
  readonly charged: string[] = [];
  private readonly scripts = new Map<string, Scripted[]>();
  private readonly applied = new Map<string, string>();
  private held: Array<() => void> = [];
  holding = false;

  constructor(readonly quota: FakeQuota) {}

  /** The next answers to `path`, in order, instead of the real ones. */
  script(path: string, ...answers: Scripted[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...answers]);
  }

  /** Answers held since `holding` was set go out now. */
  release(): void {
    const held = this.held;
    this.held = [];
    held.forEach((go) => go());
  }

  count(path: string): number {
    return this.requests.filter((request) => request.path === path).length;
  }

  readonly fetch: FetchLike = async (input, init = {}) => {
    const url = new URL(input);
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const seen = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
    };
    this.requests.push(seen);
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    if (init.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    const answer = this.scripts.get(url.pathname)?.shift() ?? this.answer(seen);
    return new Response(answer.body, { status: answer.status ?? 200, headers: answer.headers ?? {} });
  };

  private answer(request: SeenRequest): Scripted {
    const q = this.quota;
    if (request.path.endsWith('/free_trial/count')) {
      return {
        body: ok({
          is_enabled: q.isEnabled,
          free_remaining: q.freeRemaining,
          free_total: q.freeTotal,
          credits_per_use: q.creditsPerUse,
        }),
      };
    }
    if (request.path.endsWith('/getBalance')) return { body: ok({ balance: q.balance }) };
    const id = (request.body as { external_id: string }).external_id;
    const replay = this.applied.get(id);
    if (replay !== undefined) return { body: replay };
    let body: string;
    if (q.blacklisted) body = coded(20102, 'blacklisted');
    else if (q.freeRemaining > 0) {
      q.freeRemaining -= 1;
      this.charged.push(id);
      body = ok({ free_remaining: q.freeRemaining, is_credit: false });
    } else if (q.balance >= q.creditsPerUse) {
      q.balance -= q.creditsPerUse;
      this.charged.push(id);
      body = ok({ free_remaining: 0, is_credit: true });
    } else body = coded(20101, 'insufficient');
    this.applied.set(id, body);
    return { body };
  }
}

/** A fresh quota with free uses left. */
export function quota(patch: Partial<FakeQuota> = {}): FakeQuota {
  return {
    isEnabled: true,
    freeRemaining: 3,
    freeTotal: 5,
    creditsPerUse: 2,
    balance: 10,
    blacklisted: false,
    ...patch,
  };
}
