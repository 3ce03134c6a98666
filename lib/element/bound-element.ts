import type { BillingModule } from '../index';

/** The class of a billing element: an `HTMLElement` with a `billing` property. */
export type BoundElementClass = new () => HTMLElement & { billing: BillingModule | null };

/**
 * The base of both elements, built only where `HTMLElement` exists (so the
 * entry imports on a server): `billing` is a property, and `watch` runs from
 * `connectedCallback` (or when `billing` changes while connected) until
 * `disconnectedCallback` or the next change, so a move or a user switch
 * leaves nothing subscribed to the old client.
 */
export function boundElement(
  watch: (element: HTMLElement, billing: BillingModule) => Array<() => void>,
): BoundElementClass {
  return class extends HTMLElement {
    // Not #private: es2020 output would carry WeakMap helpers for them.
    private _billing: BillingModule | null = null;
    private _stop: Array<() => void> = [];

    constructor() {
      super();
      // A `billing` set before the element was defined is an own property shadowing the accessor.
      if (Object.prototype.hasOwnProperty.call(this, 'billing')) {
        const given = (this as { billing?: BillingModule | null }).billing ?? null;
        delete (this as { billing?: unknown }).billing;
        this._billing = given;
      }
    }

    get billing(): BillingModule | null {
      return this._billing;
    }

    set billing(next: BillingModule | null) {
      if (next === this._billing) return;
      this._billing = next;
      if (this.isConnected) this.connectedCallback();
    }

    connectedCallback(): void {
      this.disconnectedCallback();
      if (this._billing) this._stop = watch(this, this._billing);
    }

    disconnectedCallback(): void {
      this._stop.splice(0).forEach((stop) => stop());
    }
  };
}

/** Reads `read()` from a client that may be disposed (a user switch in progress): `undefined` then. */
export function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** The first usage fetch, if nobody asked for it yet; a failure shows in `status$`. */
export function loadOnce(billing: BillingModule): void {
  const status = safely(billing.getStatus);
  if (status && !status.loaded && !status.loading && !status.error) billing.getUsage().catch(() => undefined);
}
