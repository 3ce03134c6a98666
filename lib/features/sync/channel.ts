import { parseMessage, type SyncMessage } from './messages';

/**
 * Opens the scope's `BroadcastChannel`, or `null` where there is none or its
 * constructor throws (a `SecurityError` in a sandboxed frame or some privacy
 * modes): one warning, and the client bills as without a channel. A
 * `postMessage` that throws closes it the same way. What comes in is handed
 * over parsed (`null` for what is no message: another page may send anything).
 */
export function openChannel(name: string, onMessage: (message: SyncMessage | null) => void) {
  let channel: BroadcastChannel | null = null;
  // The platform's close() never throws, may be called again, and leaves no message to be heard after it.
  const close = () => {
    channel?.close();
    channel = null;
  };
  const attempt = (act: () => void) => {
    try {
      act();
      return true;
    } catch (error) {
      // Named by its class only (`SecurityError` for a DOMException): a message could quote what was posted.
      console.warn(
        `unified-billing: tabSync() goes on without a BroadcastChannel (${(error as Error | null)?.name || typeof error}): ` +
          'tabs no longer tell each other of a free period or a quota change, so each tab bills on its own.',
      );
      close();
      return false;
    }
  };
  if (typeof BroadcastChannel !== 'function' || !attempt(() => (channel = new BroadcastChannel(name)))) return null;
  const opened = channel as unknown as BroadcastChannel;
  // A Node script must end after its last line: the channel alone keeps nothing alive.
  (opened as { unref?: () => void }).unref?.();
  opened.onmessage = ({ data }: MessageEvent) => onMessage(parseMessage(data));
  // Posting never throws: it says whether the message went out (false once the channel failed or closed).
  return {
    post: (message: SyncMessage): boolean => channel !== null && attempt(() => opened.postMessage(message)),
    close,
  };
}
