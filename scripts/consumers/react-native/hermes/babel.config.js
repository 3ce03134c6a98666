/* global module */
// What a new React Native app has.
module.exports = { presets: ['module:@react-native/babel-preset'] };
