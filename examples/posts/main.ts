// The entry of `npm start`: the app is in this folder, how it is started and where it keeps posts in deploy/.
import cluster from 'node:cluster';
import { runPrimary } from './deploy/cluster.js';
import { readConfig } from './deploy/config.js';
import { jsonLogger } from './deploy/log.js';
import { runServer } from './deploy/server.js';

const config = readConfig(process.env);
if ('error' in config) {
  console.error(config.error);
  process.exit(1);
}

if (config.workers > 1 && cluster.isPrimary) runPrimary(config.workers);
else await runServer(config, jsonLogger());
