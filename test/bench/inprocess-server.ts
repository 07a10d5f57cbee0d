import { WORKLOAD } from './apps.js';
import { inProcessVariant } from './inprocess.js';
import { answerRounds } from './rounds.js';

// One variant per process, as for the HTTP figures, so no variant's code warms or pollutes another's.
const [name, methods] = process.argv.slice(2) as [string, string];
const requests = WORKLOAD.filter((item) => methods.split(',').includes(item.method));
const round = await inProcessVariant(name, requests);
answerRounds(round);
