import { bundle, CLIENT_ONLY, type Bundle } from './measure-size';

/** An app that imports `createClient` and registers the billing elements. */
export const CLIENT_WITH_ELEMENTS = `${CLIENT_ONLY}\nexport { defineBillingElements } from './lib/element/index.ts';`;

/** The element entry's cost, browser build, rxjs and all included (issue 26). */
export interface ElementSize {
  /** The `createClient`-only app. */
  readonly client: Bundle;
  /** The same app with `defineBillingElements` imported. */
  readonly withElements: Bundle;
  /** Gzipped bytes the element entry adds on top of the `createClient` app. */
  readonly added: number;
}

/**
 * What `unified-billing/element` adds to an app that already has a client,
 * min+gz: the goal is at most 3 KB, and nothing for an app that does not import it.
 *
 * @example
 * ```ts
 * const { added } = await measureElementSize(root);
 * ```
 */
export async function measureElementSize(root: string): Promise<ElementSize> {
  const client = await bundle(root, CLIENT_ONLY, 'browser', []);
  const withElements = await bundle(root, CLIENT_WITH_ELEMENTS, 'browser', []);
  return { client, withElements, added: withElements.gzipped - client.gzipped };
}
