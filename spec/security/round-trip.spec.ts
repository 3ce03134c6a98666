import fc from 'fast-check';
import { createClient } from '../../lib';
import { startReferenceBackend, type ReferenceBackend, REFERENCE_PATHS as P } from '../../lib/testing';
import { recordFigures } from '../helpers/figures';

const TOKEN = 'round-trip-token';
// Pieces that break naive URL or path handling, plus multi-byte text.
const PIECES = [
  '&',
  '#',
  '=',
  '%',
  '%20',
  '+',
  '?',
  ' ',
  '../',
  '/',
  '\\',
  'é',
  '日本',
  '🙂',
  'ß',
  'a',
  'Z',
  '0',
  '-',
  '_',
  '"',
  "'",
];
const text = (max: number) =>
  fc
    .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 24 })
    .map((parts) => parts.join(''))
    .filter((value) => value.length <= max);

let backend: ReferenceBackend;
let runs = 0;
beforeAll(async () => {
  backend = await startReferenceBackend({
    users: [{ token: TOKEN, freeRemaining: 1_000_000, freeTotal: 1_000_000, creditsPerUse: 1, creditsBalance: 0 }],
  });
});
afterAll(async () => {
  await backend.close();
  recordFigures('round-trip', { runs });
});

describe('appKey and externalId round-trip exactly', () => {
  it('to the backend, through the query string and the JSON body (property)', async () => {
    await fc.assert(
      fc.asyncProperty(text(200), text(255), async (appKey, externalId) => {
        runs += 1;
        backend.reset();
        const client = createClient({ baseUrl: backend.url, appKey, headers: { Authorization: `Bearer ${TOKEN}` } });
        try {
          await client.billing.getUsage();
          await client.billing.consume({ externalId });
        } finally {
          client.billing.dispose();
        }
        const count = backend.requests().find((request) => request.path === P.freeTrialCount);
        expect(count?.query).toEqual({ module: `generator_${appKey}` });
        const post = backend.requests().find((request) => request.path === P.consume);
        expect(post?.body).toEqual({ module: `generator_${appKey}`, external_id: externalId });
        expect(backend.charges().at(-1)).toMatchObject({ module: `generator_${appKey}`, externalId });
        // Nothing was read as a path: every request hit one of the three calls.
        expect(
          backend
            .requests()
            .map((request) => request.path)
            .sort(),
        ).toEqual([P.freeTrialCount, P.balance, P.consume].sort());
      }),
      { numRuns: 60 },
    );
  });
});
