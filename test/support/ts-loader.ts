// `node --import <this file's URL>` runs node with the test TypeScript loader in ts-hooks.ts.
import { register } from 'node:module';

register('./ts-hooks.js', import.meta.url);
