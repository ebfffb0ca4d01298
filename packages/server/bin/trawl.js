#!/usr/bin/env node
// The published entry point. A checkout runs the compiled CLI in dist/ (built by `npm install` through the root
// `prepare`); the package runs bundle/, the same code bundled at `npm pack` (scripts/bundle.mjs), which loads a few
// files rather than a hundred.
import { existsSync } from 'node:fs';
import module from 'node:module';

// Where Node has it (22.1 and later), V8's compiled code of every module loaded is kept on disk (the OS temp
// directory) and reused: a later start skips compiling the CLI. Older Nodes start without it.
module.enableCompileCache?.();

const argv = process.argv.slice(2);
const built = existsSync(new URL('../dist/cli/main.js', import.meta.url)) ? '../dist/cli/' : '../bundle/';

// A reader that stops early (`trawl rg … | head`) is not an error: stop quietly, as grep and rg do.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

if (argv[0] === 'rg') {
  // `trawl rg` streams a lot of output: its own entry keeps V8's heap near what is live (cli/rg-process.ts).
  const { rgProcess } = await import(`${built}rg-process.js`);
  process.exitCode = await rgProcess(argv);
} else {
  const { main } = await import(`${built}main.js`);
  process.exitCode = await main(argv);
}
