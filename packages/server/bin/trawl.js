#!/usr/bin/env node
// The published entry point: runs the compiled CLI (built by `npm install` through the root `prepare` script).
import { main } from '../dist/cli/main.js';

// A reader that stops early (`trawl rg … | head`) is not an error: stop quietly, as grep and rg do.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await main(process.argv.slice(2));
