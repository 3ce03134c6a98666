import { version as domVersion } from 'react-dom';
import { version } from 'react';

// Imported first by a spec file: every `react` and `react-dom` import of that file's module
// registry (lib/react, the spec, react-dom's own) loads React 18.3 instead, from the
// `react-18` and `react-dom-18` aliases in package.json (the peer range is `>=18`).
jest.mock('react', () => jest.requireActual('react-18'));
jest.mock('react/jsx-runtime', () => jest.requireActual('react-18/jsx-runtime'));
jest.mock('react-dom', () => jest.requireActual('react-dom-18'));
jest.mock('react-dom/client', () => jest.requireActual('react-dom-18/client'));
jest.mock('react-dom/server', () => jest.requireActual('react-dom-18/server'));

// So a spec file that imports this one cannot pass under another React by mistake.
it('runs under React 18.3 (react and react-dom)', () => {
  expect([version, domVersion].map((v) => v.startsWith('18.3.'))).toEqual([true, true]);
});
