// `unified-billing/devtools`: the Redux DevTools bridge. Its own entry point, so an app
// that does not import it bundles none of it.
export { reduxDevtools, type ReduxDevtoolsOptions } from './redux-devtools';
export type { DevtoolsConnectOptions, DevtoolsExtension, DevtoolsExtensionConnection } from './extension';
export type { Json } from './json-safe';
export type { DevtoolsConnection, DevtoolsHook, DevtoolsState } from '../features/devtools-hook';
