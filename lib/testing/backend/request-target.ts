/**
 * Splits a request target into its path and its query.
 */
export function splitTarget(target: string): { path: string; params: URLSearchParams } {
  // Not `new URL(target, base)`: a request target like `//host/x` would be
  // read as another host.
  const mark = target.indexOf('?');
  if (mark === -1) return { path: target, params: new URLSearchParams() };
  return { path: target.slice(0, mark), params: new URLSearchParams(target.slice(mark + 1)) };
}

/**
 * The first value of each query parameter, as data (a name like `__proto__` is kept).
 */
export function firstValues(params: URLSearchParams): Record<string, string> {
  // Through a Map: names like `__proto__` or `constructor` must be kept as data.
  const first = new Map<string, string>();
  for (const [name, value] of params) if (!first.has(name)) first.set(name, value);
  return Object.fromEntries(first);
}
