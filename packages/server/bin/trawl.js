#!/usr/bin/env node
// The published entry point: runs the compiled CLI (built by `npm install` through the root `prepare` script).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
