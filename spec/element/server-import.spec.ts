// Issue 26: the element entry on a server (Node, no DOM). Importing it and calling
// defineBillingElements() must neither throw nor register anything.
import { defineBillingElements } from '../../lib/element';

describe('unified-billing/element without a DOM', () => {
  const registry = globalThis as { customElements?: unknown };
  afterEach(() => {
    delete registry.customElements;
  });

  it('has no HTMLElement here, and defineBillingElements() does not throw', () => {
    expect(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement).toBe('undefined');
    expect(() => defineBillingElements()).not.toThrow();
    expect(() => defineBillingElements({ meter: 'acme-meter', gate: 'acme-gate' })).not.toThrow();
  });

  it('registers nothing, even where some code installed a customElements registry (no HTMLElement)', () => {
    const define = jest.fn();
    registry.customElements = { define, get: () => undefined };
    defineBillingElements();
    expect(define).not.toHaveBeenCalled();
  });
});
