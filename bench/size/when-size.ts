import type { Plugin } from 'esbuild';
import { bundle, CLIENT_ONLY, type Bundle } from './measure-size';

/** An app that creates a client with `refetchOn()`: what `when` is measured on top of. */
export const CLIENT_WITH_REFETCH = `${CLIENT_ONLY}\nexport { refetchOn } from './lib/index.ts';`;

// The same app without `when`: its one module replaced by one that checks nothing and subscribes to
// nothing (a null rule is skipped by checkFields), so the difference is all of when's own code.
const WITHOUT_WHEN: Plugin = {
  name: 'without-when',
  setup(build) {
    build.onLoad({ filter: /lib[\\/]features[\\/]refetch[\\/]when-source\.ts$/ }, () => ({
      contents: 'export const WHEN_RULE = null;\nexport const watchSource = () => () => undefined;\n',
      loader: 'ts',
    }));
  },
};

/** `refetchOn({ when })`'s cost, production browser build, rxjs and all included (issue 32). */
export interface WhenSize {
  readonly withWhen: Bundle;
  readonly withoutWhen: Bundle;
  /** Gzipped bytes `when` adds to an app that calls `refetchOn`. */
  readonly added: number;
}

/**
 * What `when` adds to an app that calls `refetchOn`, min+gz: the goal is at most 300 B.
 *
 * @example
 * ```ts
 * const { added } = await measureWhenSize(root);
 * ```
 */
export async function measureWhenSize(root: string): Promise<WhenSize> {
  const withWhen = await bundle(root, CLIENT_WITH_REFETCH, 'browser', []);
  const withoutWhen = await bundle(root, CLIENT_WITH_REFETCH, 'browser', [], 'production', [WITHOUT_WHEN]);
  return { withWhen, withoutWhen, added: withWhen.gzipped - withoutWhen.gzipped };
}
