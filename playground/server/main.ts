// `npm start`: the playground on http://127.0.0.1:$PORT until Ctrl-C.
import { DEMO_USERS } from './demo-users';
import { startPlayground } from './start-playground';

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 8787;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return port;
}

async function main(): Promise<void> {
  const port = portFromEnv(process.env['PORT']);
  const playground = await startPlayground({ port }).catch((error: unknown) => {
    const taken = (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
    console.error(taken ? `Port ${port} is taken; try PORT=<another port> npm start` : error);
    process.exit(1);
  });
  // Before the URL is printed: whoever reads it may signal at once, and a signal
  // that beats the handler would kill the process instead of closing it. npm forwards
  // SIGINT and SIGTERM to this process (the start script execs node, so no shell
  // stands between them to swallow one); a second signal exits without waiting.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`\n${signal}: stopping the playground`);
    void playground.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  console.log(`unified-billing playground: ${playground.url}/`);
  console.log('Demo users (switch between them on the page; tokens are sent as "Authorization: Bearer <token>"):');
  for (const user of DEMO_USERS) console.log(`  ${user.token.padEnd(18)} ${user.label}: ${user.story}`);
  console.log(`Ctrl-C stops it (or SIGTERM: kill ${process.pid}, or kill npm's pid).`);
}

void main();
