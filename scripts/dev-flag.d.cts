import type { Plugin } from 'esbuild';

/** `source` with each `__DEV__` expanded to the expression bundlers fold. */
export declare function expandDevFlag(source: string): string;
/** The esbuild plugin that expands `__DEV__` in lib/'s TypeScript files. */
export declare const devFlag: Plugin;
