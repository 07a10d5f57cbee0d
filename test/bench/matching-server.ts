import { buildFigures, lookupTrial } from './matching.js';

// One matcher on one table per process, as for the servers: no matcher's code warms or
// pollutes another's, and each lookup call site sees one matcher only.
const [name, count, spread, alone] = process.argv.slice(2) as [string, string, string, string | undefined];
try {
  if (name === 'build') {
    process.send!({ build: buildFigures(Number(count)) }, () => process.exit(0));
  } else {
    const trial = lookupTrial(
      name,
      Number(count),
      spread === 'random' || spread === 'all' ? spread : Number(spread),
      2_000_000,
      alone === 'alone',
    );
    process.on('message', (message: string) => {
      if (message === 'trial') process.send!({ rate: trial() });
      if (message === 'exit') process.exit(0);
    });
    process.send!({ ready: true });
  }
} catch (error) {
  process.send!({ error: (error as Error).message }, () => process.exit(1));
}
