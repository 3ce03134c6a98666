/**
 * A stand-in for the global `BroadcastChannel` whose deliveries the model
 * controls: every message posted waits in one queue (per receiver, in the
 * order sent) until the model delivers it; a busy or dead receiver gets
 * nothing until it is free (a dead one never does).
 */
export interface ChannelTab {
  readonly tab: number;
  readonly busy: () => boolean;
  readonly dead: () => boolean;
}

interface Delivery {
  readonly to: FakeChannel;
  readonly data: unknown;
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
    if (this.owner.dead()) return;
    this.hub.post(this, data);
  }

  close(): void {
    this.closed = true;
  }

  addEventListener(): void {
    throw new Error('the fake channel supports onmessage only');
  }
}

export class ChannelHub {
  private readonly channels: FakeChannel[] = [];
  private queue: Delivery[] = [];
  /** While true, messages wait for `deliver(n)`; otherwise `flush()` delivers them. */
  late = false;
  /** The tab whose client is being created: the channel it opens belongs to it. */
  creating: ChannelTab | null = null;
  posted = 0;

  /** The constructor to put on `globalThis.BroadcastChannel`. */
  readonly ctor: unknown;

  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const hub = this;
    this.ctor = function BroadcastChannel(name: string) {
      if (hub.creating === null) throw new Error('a channel opened outside a tab');
      const channel = new FakeChannel(hub, name, hub.creating);
      hub.channels.push(channel);
      return channel;
    };
  }

  post(from: FakeChannel, data: unknown): void {
    this.posted += 1;
    // Structured clone, as a real channel does: the receiver gets its own copy.
    const copy: unknown = JSON.parse(JSON.stringify(data));
    for (const to of this.channels) {
      if (to !== from && !to.closed && to.name === from.name) this.queue.push({ to, data: copy });
    }
  }

  private deliverable(d: Delivery): boolean {
    return !d.to.owner.busy() && !d.to.owner.dead();
  }

  /** Delivers up to `n` waiting messages (receivers busy or dead keep theirs); returns how many. */
  deliver(n: number): number {
    let done = 0;
    // A receiver with an earlier message still waiting gets none of its later ones.
    const blocked = new Set<FakeChannel>();
    const left: Delivery[] = [];
    const queue = this.queue;
    this.queue = [];
    for (const d of queue) {
      if (d.to.closed || d.to.owner.dead()) continue;
      if (done >= n || blocked.has(d.to) || !this.deliverable(d)) {
        blocked.add(d.to);
        left.push(d);
        continue;
      }
      done += 1;
      d.to.onmessage?.({ data: d.data } as MessageEvent);
    }
    this.queue = [...left, ...this.queue];
    return done;
  }

  /** Delivers everything deliverable unless deliveries are late. */
  flush(): number {
    return this.late ? 0 : this.deliver(Number.POSITIVE_INFINITY);
  }

  get waiting(): number {
    return this.queue.filter((d) => !d.to.closed && !d.to.owner.dead()).length;
  }
}

/** Puts a `BroadcastChannel` on `globalThis` that opens channels on `hub()`; returns the undo. */
export function installFakeChannel(hub: () => ChannelHub): () => void {
  const global = globalThis as { BroadcastChannel?: unknown };
  const had = Object.prototype.hasOwnProperty.call(global, 'BroadcastChannel');
  const original = global.BroadcastChannel;
  global.BroadcastChannel = function BroadcastChannel(name: string) {
    return (hub().ctor as (name: string) => unknown)(name);
  };
  return () => {
    if (had) global.BroadcastChannel = original;
    else delete global.BroadcastChannel;
  };
}
