/** The page a channel belongs to: a busy page gets its messages once free, a dead one never. */
export interface ChannelTab {
  readonly tab: number;
  readonly busy: () => boolean;
  readonly dead: () => boolean;
}

class FakeChannel {
  onmessage: ((event: MessageEvent) => void) | null = null;
  closed = false;

  constructor(
    readonly hub: ChannelHub,
    readonly name: string,
    readonly owner: ChannelTab,
  ) {}

  postMessage(data: unknown): void {
    if (this.closed) throw new Error('InvalidStateError: the channel is closed');
    if (this.hub.postThrows !== null) throw this.hub.postThrows;
    if (!this.owner.dead()) this.hub.post(this, data);
  }

  close(): void {
    this.closed = true;
  }
}

/**
 * The one stand-in for `BroadcastChannel`: every message posted waits in one
 * queue (per receiver, in the order sent) until delivered (`flush`, or
 * `deliver(n)` while `late`); a busy or dead receiver gets nothing until it is
 * free (a dead one never does). A channel belongs to the page being created.
 */
export class ChannelHub {
  private readonly channels: FakeChannel[] = [];
  private queue: Array<{ readonly to: FakeChannel; readonly data: unknown }> = [];
  /** While true, messages wait for `deliver(n)`; otherwise `flush()` delivers them. */
  late = false;
  /** The tab whose client is being created: the channel it opens belongs to it. */
  creating: ChannelTab | null = null;
  /** What the constructor throws (a sandboxed frame's `SecurityError`), else `null`. */
  openThrows: unknown = null;
  /** What every `postMessage` throws, else `null`. */
  postThrows: unknown = null;

  open(name: string, owner = this.creating): FakeChannel {
    if (owner === null) throw new Error('a channel opened outside a tab');
    if (this.openThrows !== null && owner.tab >= 0) throw this.openThrows;
    const channel = new FakeChannel(this, name, owner);
    this.channels.push(channel);
    return channel;
  }

  post(from: FakeChannel, data: unknown): void {
    // Structured clone, as a real channel does: the receiver gets its own copy.
    const copy: unknown = JSON.parse(JSON.stringify(data));
    for (const to of this.channels) {
      if (to !== from && !to.closed && to.name === from.name) this.queue.push({ to, data: copy });
    }
  }

  /** The channels of `tab` still open (a disposed page should have none). */
  openOf(tab: number): string[] {
    return this.channels.filter((c) => c.owner.tab === tab && !c.closed).map((c) => c.name);
  }

  /** Delivers up to `n` waiting messages (receivers busy or dead keep theirs); returns how many. */
  deliver(n: number): number {
    let done = 0;
    // A receiver with an earlier message still waiting gets none of its later ones.
    const blocked = new Set<FakeChannel>();
    const queue = this.queue;
    this.queue = [];
    const left = queue.filter((d) => {
      if (d.to.closed || d.to.owner.dead()) return false;
      if (done >= n || blocked.has(d.to) || d.to.owner.busy()) return blocked.add(d.to);
      done += 1;
      d.to.onmessage?.({ data: d.data } as MessageEvent);
      return false;
    });
    this.queue = [...left, ...this.queue];
    return done;
  }

  /** Delivers everything deliverable unless deliveries are late. */
  flush(): number {
    return this.late ? 0 : this.deliver(Number.POSITIVE_INFINITY);
  }
}

/** A DOMException-like error, as a sandboxed frame's `BroadcastChannel` throws. */
export function securityError(): Error {
  return Object.assign(new Error('Access to BroadcastChannel is denied in this context'), { name: 'SecurityError' });
}

/** Puts a `BroadcastChannel` on `globalThis` that opens channels on `hub()`; returns the undo. */
export function installFakeChannel(hub: () => ChannelHub): () => void {
  const global = globalThis as { BroadcastChannel?: unknown };
  const had = Object.prototype.hasOwnProperty.call(global, 'BroadcastChannel');
  const original = global.BroadcastChannel;
  global.BroadcastChannel = function BroadcastChannel(name: string) {
    return hub().open(name);
  };
  return () => {
    if (had) global.BroadcastChannel = original;
    else delete global.BroadcastChannel;
  };
}
