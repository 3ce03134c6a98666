// `node playground/run-ts.mjs scripts/pictures/main.ts`: draws every picture of the docs into
// docs/pictures/. With `--check`, writes nothing and fails when a committed picture differs from
// what its source draws (spec/docs/pictures.spec.ts checks the same in `npm test`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PICTURES } from './pictures';
import { render } from './svg';

const dir = join(process.cwd(), 'docs', 'pictures');
const check = process.argv.includes('--check');
const stale: string[] = [];
for (const picture of PICTURES) {
  const file = join(dir, `${picture.name}.svg`);
  const drawn = render(picture);
  if (!check) writeFileSync(file, drawn);
  else if (readFileSync(file, 'utf8') !== drawn) stale.push(file);
}
if (stale.length > 0) {
  console.error(
    `pictures differ from their sources (run node playground/run-ts.mjs scripts/pictures/main.ts): ${stale.join(', ')}`,
  );
  process.exit(1);
}
console.log(
  check ? `pictures: ${PICTURES.length} match their sources` : `pictures: ${PICTURES.length} drawn into ${dir}`,
);
