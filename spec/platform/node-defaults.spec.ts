import crossFetch from 'cross-fetch';
import { validate, version } from 'uuid';
import { defaultFetch } from '../../lib/platform/default-fetch';
import { randomId } from '../../lib/platform/random-id';

// The default build (Node, and any runtime without the browser condition).
describe('the default build platform seams', () => {
  it('defaultFetch is cross-fetch', () => {
    expect(defaultFetch).toBe(crossFetch);
  });

  it('randomId() gives distinct valid version 4 UUIDs (uuid)', () => {
    const ids = Array.from({ length: 1000 }, randomId);
    expect(ids.every((id) => validate(id) && version(id) === 4)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
