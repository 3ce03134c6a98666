// What the consumer checks share (check-consumers.mjs, check-react-native.mjs): the
// packed tarball, and a command run with a time limit.
import { execFileSync, spawn } from 'node:child_process';
import { basename, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Runs a command in its own process group; kills the group when the limit passes. */
export function run(command, args, { cwd, limitMs, env }) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid, 'SIGKILL');
    }, limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output, timedOut });
    });
  });
}

/** `npm pack` of the repository (built first: `npm run build`) into `destination`; the tarball's path. */
export function pack(destination) {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: root, encoding: 'utf8' }),
  );
  return join(destination, basename(filename));
}
