import { WORKLOAD } from './apps.js';
import { inProcessVariant } from './inprocess.js';

// One variant per process, as for the HTTP figures, so no variant's code warms or pollutes another's.
const [name, methods] = process.argv.slice(2) as [string, string];
const requests = WORKLOAD.filter((item) => methods.split(',').includes(item.method));
const round = await inProcessVariant(name, requests);
process.on('message', (message: string) => {
  if (message === 'round')
    void round().then(
      (cpu) => process.send!({ cpu }),
      (error: Error) => process.send!({ error: error.message }),
    );
  if (message === 'exit') process.exit(0);
});
process.send!({ ready: true });
