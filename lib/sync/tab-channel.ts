import { Subject, type Observable } from 'rxjs';
import { parseMessage, type SyncMessage } from './messages';

type Outgoing = SyncMessage extends infer M ? (M extends SyncMessage ? Omit<M, 'v' | 'from'> : never) : never;

type PageEvents = {
  addEventListener?: (type: string, listener: () => void) => void;
  removeEventListener?: (type: string, listener: () => void) => void;
};

/**
 * One tab's end of the BroadcastChannel: valid messages in, messages out, the
 * claims of other tabs that have not been released yet, and this tab's own
 * claim, announced again to every tab that says hello.
 */
export class TabChannel {
  readonly id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly channel: BroadcastChannel;
  private readonly incoming = new Subject<SyncMessage>();
  readonly messages$: Observable<SyncMessage> = this.incoming.asObservable();
  /** Other tabs' claims not yet released: tab id to claim time. */
  readonly claims = new Map<string, number>();
  /** Other tabs heard from and not gone: the ones a handover waits for. */
  readonly peers = new Set<string>();
  /** When this tab said hello, on its scheduler's clock; `null` before. */
  helloAt: number | null = null;
  private ownClaim: number | null = null;
  private closed = false;
  private readonly page = globalThis as PageEvents;
  // A closing tab lets go at once, so the others do not wait out a silent holder's cap.
  private readonly onPageHide = () => {
    this.withdraw();
    this.post({ kind: 'bye' });
  };

  constructor(name: string) {
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = (event: MessageEvent) => {
      const message = parseMessage(event.data);
      if (message === null || message.from === this.id) return;
      this.track(message);
      this.incoming.next(message);
    };
    if (typeof this.page.addEventListener === 'function') this.page.addEventListener('pagehide', this.onPageHide);
    // Node only (browsers have no unref): an open channel must not keep a script alive.
    (this.channel as { unref?: () => void }).unref?.();
  }

  private track(message: SyncMessage): void {
    const { from } = message;
    if (message.kind === 'bye') {
      this.peers.delete(from);
      this.claims.delete(from);
      return;
    }
    this.peers.add(from);
    if (message.kind === 'claim') this.claims.set(from, message.at);
    if (message.kind === 'release') this.claims.delete(from);
    // A new tab never heard the claim this one holds: without it, it would take the lock too.
    if (message.kind === 'hello' && this.ownClaim !== null) this.post({ kind: 'claim', at: this.ownClaim });
    // Answered at once: a tab's messages arrive in the order it sent them, so whoever
    // pinged has everything this tab posted before once the pong is in.
    if (message.kind === 'ping') this.post({ kind: 'pong', to: from, nonce: message.nonce });
  }

  /** Says hello (the others answer with their state and claims) and notes when. */
  hello(now: number): void {
    this.helloAt = now;
    this.post({ kind: 'hello' });
  }

  /** Claims the consume lock at `at` (wall clock), until {@link withdraw}. */
  announce(at: number): void {
    this.ownClaim = at;
    this.post({ kind: 'claim', at });
  }

  /** Releases this tab's claim, if it holds one. */
  withdraw(): void {
    if (this.ownClaim === null) return;
    this.ownClaim = null;
    this.post({ kind: 'release' });
  }

  post(message: Outgoing): void {
    if (this.closed) return;
    try {
      this.channel.postMessage({ ...message, v: 1, from: this.id });
    } catch {
      // A closing page may refuse to post; the other tabs' caps cover a lost message.
    }
  }

  close(): void {
    if (this.closed) return;
    if (typeof this.page.removeEventListener === 'function') {
      this.page.removeEventListener('pagehide', this.onPageHide);
    }
    this.withdraw();
    this.post({ kind: 'bye' });
    this.closed = true;
    this.channel.onmessage = null;
    this.channel.close();
    this.incoming.complete();
  }
}
