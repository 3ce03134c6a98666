import { utf8Encode } from '../backend/utf8';

/**
 * The headers of a `PlainResponse`: the read side of `Headers`, names in
 * lower case, iterated in order of name.
 */
export class PlainHeaders {
  private readonly map = new Map<string, string>();

  constructor(init: Readonly<Record<string, string>>) {
    for (const name of Object.keys(init).sort()) this.map.set(name.toLowerCase(), String(init[name]));
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: PlainHeaders) => void): void {
    this.map.forEach((value, name) => callback(value, name, this));
  }

  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  values(): IterableIterator<string> {
    return this.map.values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }
}

/**
 * A `Response` for platforms without one (Jest's `jsdom` environment): the
 * status, the headers and a body read whole with `text()`, `json()` or
 * `arrayBuffer()`, once. `content` gives the body's text when it is asked
 * for; a stalled body is a promise that settles only when it fails.
 */
export class PlainResponse {
  readonly type = 'basic';
  readonly url = '';
  readonly redirected = false;
  readonly statusText = '';
  readonly body = null;
  readonly ok: boolean;
  readonly headers: PlainHeaders;
  private used = false;

  constructor(
    private readonly content: () => Promise<string>,
    readonly status: number,
    headers: Readonly<Record<string, string>>,
  ) {
    this.ok = status >= 200 && status <= 299;
    this.headers = new PlainHeaders(headers);
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  text(): Promise<string> {
    // As fetch's Response does: a body is read once.
    if (this.used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.used = true;
    return this.content();
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = utf8Encode(await this.text());
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  clone(): PlainResponse {
    if (this.used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new PlainResponse(this.content, this.status, Object.fromEntries(this.headers));
  }
}
