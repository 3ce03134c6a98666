import type { SyncMessage } from './messages';

/** The tab channel as tabSync uses it: posting never throws, and a channel that failed once is gone. */
export interface SyncChannel {
  /** Whether the message went out: false once the channel failed (or was closed). */
  post(message: SyncMessage): boolean;
  close(): void;
}

// `SecurityError` for a DOMException, else the error's class.
const errorClass = (error: unknown): string => {
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && name !== '') return name;
  return (error as { constructor?: { name?: string } } | null)?.constructor?.name ?? typeof error;
};

const warn = (error: unknown): void =>
  console.warn(
    `unified-billing: tabSync() goes on without a BroadcastChannel (${errorClass(error)}): tabs no longer ` +
      'tell each other of a free period or a quota change; Web Locks, where they work, still keep ' +
      'simultaneous clicks to one charge.',
  );

/**
 * Opens the scope's `BroadcastChannel`, or `null` where there is none or its
 * constructor throws (a `SecurityError` in a sandboxed frame or some privacy
 * modes): one warning, and the client bills as without a channel. A
 * `postMessage` that throws closes it the same way.
 */
export function openChannel(name: string, onMessage: (data: unknown) => void): SyncChannel | null {
  if (typeof BroadcastChannel !== 'function') return null;
  let channel: BroadcastChannel | null;
  try {
    channel = new BroadcastChannel(name);
  } catch (error) {
    warn(error);
    return null;
  }
  // A Node script must end after its last line: the channel alone keeps nothing alive.
  (channel as { unref?: () => void }).unref?.();
  channel.onmessage = ({ data }: MessageEvent) => onMessage(data);
  const close = () => {
    if (channel === null) return;
    channel.onmessage = null;
    try {
      channel.close();
    } catch {
      // Closing is all that is left to do; a channel that cannot even close is gone anyway.
    }
    channel = null;
  };
  return {
    post(message) {
      if (channel === null) return false;
      try {
        channel.postMessage(message);
        return true;
      } catch (error) {
        warn(error);
        close();
        return false;
      }
    },
    close,
  };
}
