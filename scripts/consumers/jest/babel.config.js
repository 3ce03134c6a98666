/* global module */
// Jest's documented Babel setup, with TypeScript.
module.exports = {
  presets: [['@babel/preset-env', { targets: { node: 'current' } }], '@babel/preset-typescript'],
};
