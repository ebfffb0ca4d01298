#!/usr/bin/env node
// The published entry point: runs the compiled CLI (built by `npm install` through the root `prepare` script).
const argv = process.argv.slice(2);

// A reader that stops early (`trawl rg … | head`) is not an error: stop quietly, as grep and rg do.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

if (argv[0] === 'rg') {
  // `trawl rg` streams a lot of output: its own entry keeps V8's heap near what is live (cli/rg-process.ts).
  const { rgProcess } = await import('../dist/cli/rg-process.js');
  process.exitCode = await rgProcess(argv);
} else {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(argv);
}
