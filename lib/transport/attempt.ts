import { deadline } from '../shared/deadline';
import { BillingError, abortedError, invalid } from '../shared/errors';
import type { Call, CallOptions, TransportConfig } from './config';
import { decodeEnvelope } from './decode';
import { answerError, backendError, fetchError, malformedError } from './failure';
import { checkedHeaders, type HeaderRecord } from './headers';
import { exchange, type HttpResponse } from './http';

/**
 * One attempt of a call: its headers, one exchange and the answer read, all
 * under the attempt's deadline (`timeoutMs` on the scheduler, covering a
 * pending headers function too, and the caller's `signal`). Resolves with
 * what the call's `read` makes of a 2xx envelope. Every rejection is a
 * `BillingError`; whether another attempt follows is the retry loop's
 * question (request.ts). With static headers the exchange starts before this
 * returns, and an abort rejects it in the abort event itself.
 */
export function attempt<T>(
  config: TransportConfig,
  { method, url, where, read }: Call<T>,
  { signal, onSend }: CallOptions,
  body: string | undefined,
): Promise<T> {
  const { timeoutMs, headers: headersOption } = config;
  let sent = false;
  // The deadline's signal aborts the fetch when the attempt times out or the caller aborts.
  return deadline(
    async (stopped) => {
      let headers: HeaderRecord = {};
      let exchanging: Promise<HttpResponse> | undefined;
      let response: HttpResponse | undefined;
      try {
        let value: unknown = headersOption ?? {};
        if (typeof headersOption === 'function') {
          // What it threw may quote a credential, so it is not passed on.
          value = await new Promise((resolve) => resolve(headersOption())).catch(() =>
            invalid(__DEV__ ? 'The headers option function threw or rejected' : 'invalid headers'),
          );
          // Timed out or aborted while waiting: this attempt is over, nothing is sent.
          if (stopped.aborted) throw abortedError();
        }
        // The option or what its function gave: a record or a Headers may change between attempts, so it is
        // checked each time.
        headers = checkedHeaders(value);
        // A fresh object per attempt: a fetch may keep or change what it is given.
        const sending: Record<string, string> = { accept: 'application/json', ...headers };
        if (body !== undefined) sending['content-type'] = 'application/json';
        onSend?.();
        sent = true;
        exchanging = exchange(config.fetch, url, { method, headers: sending, body, signal: stopped });
        response = await exchanging;
        if (response.status < 200 || response.status > 299) throw answerError(response, { where, headers });
        const envelope = decodeEnvelope(response.text);
        const answer = read(envelope);
        if (answer === undefined) throw backendError(envelope, { where, headers });
        return answer;
      } catch (thrown) {
        // Anything but a BillingError came from the fetch or its response (one
        // without `headers`, a `text()` that throws): a failed exchange, or a
        // fetch that threw before `exchange` returned, which sent nothing.
        if (!(thrown instanceof BillingError))
          throw fetchError(thrown, { where, headers }, sent && exchanging === undefined);
        // A body that does not decode is described with the answer it came in.
        throw response && thrown.code === 'decode'
          ? malformedError(response, { where, headers }, thrown.message)
          : thrown;
      }
    },
    {
      scheduler: config.scheduler,
      ms: timeoutMs,
      signal,
      onTimeout: () => {
        throw new BillingError(
          'timeout',
          `${where} timed out after ${timeoutMs} ms${__DEV__ && !sent ? ' waiting for headers' : ''}`,
        );
      },
      onAbort: () => {
        throw abortedError();
      },
    },
  );
}
