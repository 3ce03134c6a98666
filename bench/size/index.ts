import type { Row } from '../harness/table';
import { ELEMENT_ADDED_GOAL, SIZE_AIMS, SIZE_GOALS, WHEN_ADDED_GOAL } from './budgets';
import { measureElementSize } from './element-size';
import { measureSize, RXJS_APP_OPERATORS, type Bundle } from './measure-size';
import { measureWhenSize } from './when-size';

const KB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function row(figure: string, bundle: Bundle, goal: string, met: boolean | null, baseline?: Bundle): Row {
  return {
    section: 'size',
    figure,
    value: bundle.gzipped,
    unit: 'B',
    ...(baseline === undefined
      ? {}
      : { baseline: baseline.gzipped, ratio: Math.round((bundle.gzipped / baseline.gzipped) * 1000) / 1000 }),
    goal,
    met,
  };
}

function reported(figure: string, value: number): Row {
  return { section: 'size', figure, value, unit: 'B', goal: '(reported)', met: null };
}

/**
 * Every size row of `npm run bench`, min+gz (gzip level 9) unless the figure
 * says otherwise; _own_ keeps rxjs external, _all_ is
 * everything the bundle pulls in. Every bundle is a production build
 * (`process.env.NODE_ENV` = "production") except the development rows beside
 * them. The two goals of issue 24 carry verdicts.
 *
 * @example
 * ```ts
 * rows.push(...(await measureSizeRows(root)));
 * ```
 */
export async function measureSizeRows(root: string): Promise<Row[]> {
  const { client, clientDevelopment, barrel, rxjsApp } = await measureSize(root);
  const browser = client.browser;
  const element = await measureElementSize(root);
  const when = await measureWhenSize(root);
  return [
    row(
      'createClient only, browser, own code, production',
      browser.own,
      `<= ${SIZE_GOALS.own} B (aim ${SIZE_AIMS.own} B)`,
      browser.own.gzipped <= SIZE_GOALS.own,
    ),
    // The same app as its bundler builds it for development (lib/shared/dev.ts), beside it.
    row(
      'createClient only, browser, own code, development (vs production)',
      clientDevelopment.own,
      '(reported)',
      null,
      browser.own,
    ),
    row(
      'createClient only, browser, all (rxjs too), production',
      browser.total,
      `<= ${SIZE_GOALS.total} B`,
      browser.total.gzipped <= SIZE_GOALS.total,
    ),
    reported('createClient only, browser, own code, minified', browser.own.minified),
    reported('createClient only, browser, own code, development, minified', clientDevelopment.own.minified),
    row('createClient only, browser, all (rxjs too), development', clientDevelopment.total, '(reported)', null),
    row('whole barrel (export *), browser, own code', barrel.browser.own, '(reported)', null),
    row('whole barrel (export *), browser, all', barrel.browser.total, '(reported)', null),
    reported(
      `added to an app using ${RXJS_APP_OPERATORS.length} rxjs operators (${KB(rxjsApp.alone.gzipped)} alone), browser, all`,
      rxjsApp.withClient.gzipped - rxjsApp.alone.gzipped,
    ),
    {
      section: 'size',
      figure: 'unified-billing/element added to the createClient app, browser, all',
      value: element.added,
      unit: 'B',
      goal: `<= ${ELEMENT_ADDED_GOAL} B`,
      met: element.added <= ELEMENT_ADDED_GOAL,
    },
    {
      section: 'size',
      figure: 'refetchOn({ when }) added to a createClient + refetchOn app, browser, all',
      value: when.added,
      unit: 'B',
      goal: `<= ${WHEN_ADDED_GOAL} B`,
      met: when.added <= WHEN_ADDED_GOAL,
    },
    row('createClient only, bundled for Node, own code', client.node.own, '(reported)', null),
    row('createClient only, bundled for Node, all (rxjs CJS)', client.node.total, '(not shipped)', null),
    row('whole barrel (export *), bundled for Node, own code', barrel.node.own, '(reported)', null),
    row('whole barrel (export *), bundled for Node, all (rxjs CJS)', barrel.node.total, '(not shipped)', null),
  ];
}
