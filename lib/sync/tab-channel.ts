import { Subject, type Observable } from 'rxjs';
import { parseMessage, type SyncMessage } from './messages';

type Outgoing = SyncMessage extends infer M ? (M extends SyncMessage ? Omit<M, 'v' | 'from'> : never) : never;

/**
 * One tab's end of the BroadcastChannel: valid messages in, messages out, and
 * the claims of other tabs that have not been released yet.
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
  private closed = false;

  constructor(name: string) {
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = (event: MessageEvent) => {
      const message = parseMessage(event.data);
      if (message === null || message.from === this.id) return;
      this.track(message);
      this.incoming.next(message);
    };
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
    // Answered at once: a tab's messages arrive in the order it sent them, so whoever
    // pinged has everything this tab posted before once the pong is in.
    if (message.kind === 'ping') this.post({ kind: 'pong', to: from, nonce: message.nonce });
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
    this.post({ kind: 'bye' });
    this.closed = true;
    this.channel.onmessage = null;
    this.channel.close();
    this.incoming.complete();
  }
}
