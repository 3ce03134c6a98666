/* global module */
// The React Native 0.86 preset as its README configures it, and nothing else: no
// transformIgnorePatterns entry for unified-billing or what it depends on.
module.exports = { preset: '@react-native/jest-preset' };
