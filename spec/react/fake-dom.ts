// Just enough DOM for react-dom/client to mount, update and unmount a tree
// of elements and text in Node (jsdom is not a dependency). Installed on the
// globals before react-dom/client is loaded; `text()` reads what the tree shows.

type Listener = (event: unknown) => void;

class FakeNode {
  readonly childNodes: FakeNode[] = [];
  parentNode: FakeNode | null = null;
  nodeValue: string | null = null;
  readonly style: Record<string, string> = {};
  private readonly attributes = new Map<string, string>();
  private readonly listeners = new Map<string, Listener[]>();

  constructor(
    readonly nodeType: number,
    readonly nodeName: string,
    readonly ownerDocument: FakeDocument | null,
  ) {}

  get tagName(): string {
    return this.nodeName;
  }
  get namespaceURI(): string {
    return 'http://www.w3.org/1999/xhtml';
  }
  get firstChild(): FakeNode | null {
    return this.childNodes[0] ?? null;
  }
  get lastChild(): FakeNode | null {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }
  get nextSibling(): FakeNode | null {
    const siblings = this.parentNode?.childNodes ?? [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }
  get textContent(): string {
    return this.nodeType === 3 ? (this.nodeValue ?? '') : this.childNodes.map((child) => child.textContent).join('');
  }
  set textContent(value: string) {
    this.childNodes.splice(0).forEach((child) => (child.parentNode = null));
    if (value !== '') this.appendChild(new FakeNode(3, '#text', this.ownerDocument)).nodeValue = value;
  }
  get data(): string {
    return this.nodeValue ?? '';
  }
  set data(value: string) {
    this.nodeValue = value;
  }
  appendChild(child: FakeNode): FakeNode {
    return this.insertBefore(child, null);
  }
  insertBefore(child: FakeNode, before: FakeNode | null): FakeNode {
    child.parentNode?.removeChild(child);
    const index = before === null ? this.childNodes.length : this.childNodes.indexOf(before);
    this.childNodes.splice(index, 0, child);
    child.parentNode = this;
    return child;
  }
  removeChild(child: FakeNode): FakeNode {
    this.childNodes.splice(this.childNodes.indexOf(child), 1);
    child.parentNode = null;
    return child;
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, String(value));
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  removeAttribute(name: string): void {
    this.attributes.delete(name);
  }
  hasAttribute(name: string): boolean {
    return this.attributes.has(name);
  }
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  removeEventListener(type: string, listener: Listener): void {
    this.listeners.set(
      type,
      (this.listeners.get(type) ?? []).filter((l) => l !== listener),
    );
  }
}

class FakeDocument extends FakeNode {
  readonly activeElement = null;
  readonly documentElement: FakeNode;
  readonly body: FakeNode;
  readonly defaultView = globalThis;

  constructor() {
    super(9, '#document', null);
    this.documentElement = this.appendChild(this.createElement('html'));
    this.body = this.documentElement.appendChild(this.createElement('body'));
  }
  createElement(tag: string): FakeNode {
    return new FakeNode(1, tag.toUpperCase(), this);
  }
  createElementNS(_ns: string, tag: string): FakeNode {
    return this.createElement(tag);
  }
  createTextNode(text: string): FakeNode {
    const node = new FakeNode(3, '#text', this);
    node.nodeValue = text;
    return node;
  }
}

/** Installs `window` and `document` on the globals; returns a container to render into. */
export function installFakeDom(): { container: FakeNode; text: () => string } {
  const document = new FakeDocument();
  const globals = globalThis as Record<string, unknown>;
  globals.document = document;
  globals.window = globalThis;
  globals.HTMLIFrameElement = class HTMLIFrameElement {};
  globals.IS_REACT_ACT_ENVIRONMENT = true;
  // Node 20 has no navigator; react-dom reads its userAgent at load time.
  if (globals.navigator === undefined) globals.navigator = { userAgent: 'node' };
  const container = document.body.appendChild(document.createElement('div'));
  return { container, text: () => container.textContent };
}
