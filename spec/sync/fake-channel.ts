/**
 * A stand-in for the global `BroadcastChannel` whose delivery a test controls:
 * each end can be held (a busy main thread, a frozen background tab), its
 * messages then wait, in order, until it is released.
 */
export class FakeBroadcastChannel {
  static readonly all: FakeBroadcastChannel[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  private held = false;
  private inbox: unknown[] = [];
  private closed = false;

  constructor(readonly name: string) {
    FakeBroadcastChannel.all.push(this);
  }

  /** The end created last, e.g. the one of the tab just opened. */
  static latest(): FakeBroadcastChannel {
    const end = FakeBroadcastChannel.all.at(-1);
    if (end === undefined) throw new Error('no channel yet');
    return end;
  }

  postMessage(data: unknown): void {
    if (this.closed) throw new Error('InvalidStateError: the channel is closed');
    const copy = structuredClone(data);
    FakeBroadcastChannel.all
      .filter((end) => end !== this && end.name === this.name && !end.closed)
      .forEach((end) => end.receive(copy));
  }

  close(): void {
    this.closed = true;
  }

  /** Messages to this end wait until {@link release}. */
  hold(): void {
    this.held = true;
  }

  /** Delivers what waited, in order, then delivers as usual. */
  release(): void {
    this.held = false;
    const waiting = this.inbox;
    this.inbox = [];
    waiting.forEach((data) => this.deliver(data));
  }

  private receive(data: unknown): void {
    if (this.held) this.inbox.push(data);
    else this.deliver(data);
  }

  // A task later, as a real channel delivers, never inside the sender's call.
  private deliver(data: unknown): void {
    setImmediate(() => {
      if (!this.closed) this.onmessage?.({ data } as MessageEvent);
    });
  }
}

/** Replaces the global `BroadcastChannel` until the returned function is called. */
export function installFakeChannel(): () => void {
  const original = globalThis.BroadcastChannel;
  FakeBroadcastChannel.all.splice(0);
  globalThis.BroadcastChannel = FakeBroadcastChannel as unknown as typeof BroadcastChannel;
  return () => {
    globalThis.BroadcastChannel = original;
    FakeBroadcastChannel.all.splice(0);
  };
}
