// `npm run demo`: the walk-through as a table; exits 1 if a step misbehaves.
import { renderTable } from './step-report';
import { runWalkthrough } from './walkthrough';

async function main(): Promise<void> {
  console.log('unified-billing walk-through: one user (1 free use, 10 credits per use, balance 15)');
  console.log(
    'against an embedded reference backend; the 30 s free period is fast-forwarded with a virtual scheduler.\n',
  );
  const steps = await runWalkthrough();
  console.log(renderTable(steps));
  const failed = steps.filter((step) => step.problems.length > 0);
  for (const step of failed) console.error(`\nstep "${step.title}" misbehaved: ${step.problems.join('; ')}`);
  console.log(failed.length === 0 ? '\nEvery step behaved as the spec says.' : '');
  process.exitCode = failed.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
