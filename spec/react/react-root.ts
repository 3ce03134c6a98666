import { act, type ReactNode } from 'react';
import type { Root } from 'react-dom/client';
import { cleanup } from '../helpers/client-fixture';
import { installFakeDom } from './fake-dom';

/**
 * A fake DOM and one React root for a spec file: rendered empty and the
 * fixture's clients disposed after each test, unmounted after all.
 */
export function reactRoot(): { render(node: ReactNode): Promise<void>; text(): string } {
  const dom = installFakeDom();
  let root: Root;
  beforeAll(async () => {
    // Loaded after the fake DOM is in place: react-dom decides at load time whether it has a DOM.
    const { createRoot } = await import('react-dom/client');
    root = createRoot(dom.container as unknown as Element);
  });
  afterEach(async () => {
    await act(async () => root.render(null));
    cleanup();
  });
  afterAll(() => act(() => root.unmount()));
  return {
    render: (node) => act(async () => root.render(node)),
    text: () => dom.text(),
  };
}
