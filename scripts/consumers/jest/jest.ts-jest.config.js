/* global module */
// What `npx ts-jest config:init` writes: the ts-jest preset, nothing else.
module.exports = { preset: 'ts-jest', testEnvironment: 'node' };
