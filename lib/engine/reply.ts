/**
 * The caller's side of one request on a request stream: the promise it
 * awaits, settled once by whoever finishes first (the effect working on the
 * request, an abort, `dispose()`); later settlements are no-ops.
 */
export class Reply<T> {
  readonly promise: Promise<T>;
  settled = false;
  /** Set by the effect while it works on the request: stops that work. */
  cancel: (() => void) | null = null;
  private done!: (value: T) => void;
  private failed!: (error: unknown) => void;

  /** `onSettled` hears each outcome as the caller gets it: the value, or the error as explained. */
  constructor(private readonly onSettled?: (reply: Reply<T>, ok: boolean, outcome: unknown) => void) {
    this.promise = new Promise<T>((resolve, reject) => {
      this.done = resolve;
      this.failed = reject;
    });
  }

  /** Runs `aborted` when `signal` aborts (at once if it has) while this reply is unsettled. */
  abortOn(signal: AbortSignal | undefined, aborted: () => void): void {
    if (signal === undefined) return;
    if (signal.aborted) return aborted();
    signal.addEventListener('abort', aborted);
    const stop = () => signal.removeEventListener('abort', aborted);
    this.promise.then(stop, stop);
  }

  resolve(value: T): void {
    if (this.end(true, value)) this.done(value);
  }

  reject(error: unknown): void {
    const explained = this.settled ? error : this.explain(error);
    if (this.end(false, explained)) this.failed(explained);
  }

  /** What the caller is told for `error`; a subclass adds what it knows. */
  protected explain(error: unknown): unknown {
    return error;
  }

  private end(ok: boolean, outcome: unknown): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.onSettled?.(this, ok, outcome);
    return true;
  }
}
