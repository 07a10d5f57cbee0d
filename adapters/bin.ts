#!/usr/bin/env node
// The `sevenfold` executable: runs the CLI, then exits once everything it printed is written.
import { main } from './cli.js';

// A reader that stops early (`| head`) closes the pipe: that ends the output, it is no crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// Each write resolves once its text is handed to the OS, so the exit below loses none of it.
const written: Promise<void>[] = [];
const writer = (stream: NodeJS.WriteStream) => (text: string) => {
  written.push(new Promise((done) => stream.write(text, () => done())));
};

process.exitCode = await main(process.argv.slice(2), {
  out: writer(process.stdout),
  err: writer(process.stderr),
  cwd: process.cwd(),
});
// Exit even when the module keeps the event loop alive (a server started at import time).
await Promise.all(written);
process.exit();
