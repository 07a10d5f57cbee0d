import { VARIANTS } from './apps.js';

// One benchmarked server per process, so its CPU time is its own; the parent asks for it over IPC.
const name = process.argv[2]!;
const server = await VARIANTS[name]!();
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address !== null ? address.port : 0 });
});
process.on('message', (message: string) => {
  if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
  if (message === 'exit') server.close(() => process.exit(0));
});
