// The specs that also run against the production build (spec/shared/production-build.spec.ts)
// expect one message or the other by the mode they run in; every other fact is the same.

/** True when the spec runs with `NODE_ENV=production`: the production build's messages. */
export const inProduction = (): boolean => process.env.NODE_ENV === 'production';

/** `development` in development (Node and Jest by default), `production` in a production build. */
export const byMode = <T>(development: T, production: T): T => (inProduction() ? production : development);

/**
 * Every production message of a request: what happened, the method and the
 * URL without a query, and the status where there is one; nothing quoted.
 */
export const SHORT_REQUEST_MESSAGE =
  /^(?:(?:HTTP \d{3}|Backend answered code -?\d+|Malformed response body) on )?(?:GET|POST) https?:\/\/[^\s?#]+(?: \(HTTP \d{3}\)| failed| timed out after \d+ ms|: no working fetch)?$/;

/** `development` in development; in production, a short message naming the request (SHORT_REQUEST_MESSAGE). */
export const requestMessage = <T>(development: T): T | jest.AsymmetricMatcher =>
  byMode<T | jest.AsymmetricMatcher>(development, expect.stringMatching(SHORT_REQUEST_MESSAGE));
