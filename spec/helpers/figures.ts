import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where measured figures go: `FIGURES_DIR`, else a folder in the OS temp dir. */
export function figuresDir(): string {
  return process.env['FIGURES_DIR'] ?? join(tmpdir(), 'unified-billing-figures');
}

/**
 * Records what a suite measured, so docs quote a run instead of a guess:
 * one JSON file per suite, and one `[figures]` line on stdout.
 */
export function recordFigures(name: string, figures: Readonly<Record<string, number | string>>): void {
  const dir = figuresDir();
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${name}.json`),
    `${JSON.stringify({ ...figures, recordedAt: new Date().toISOString() }, null, 2)}\n`,
  );
  const line = Object.entries(figures)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  process.stdout.write(`[figures] ${name}: ${line}\n`);
}
