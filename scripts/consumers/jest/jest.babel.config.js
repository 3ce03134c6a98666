/* global module */
// Babel (babel.config.js) transforms the tests: Jest's default.
module.exports = { testEnvironment: 'node' };
