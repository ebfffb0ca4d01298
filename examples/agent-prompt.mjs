#!/usr/bin/env node
// An adapter for `trawl serve --agent`: turns the JSON payload trawl writes on stdin into a plain-text prompt
// (the message, then each attached file's text) and pipes it into any CLI that reads a prompt on stdin, whose
// stdout becomes the reply. Usage:
//
//   trawl serve ~/src/app --agent "node examples/agent-prompt.mjs claude -p"
//   trawl serve ~/src/app --agent "node examples/agent-prompt.mjs llm -m gpt-4o-mini"
//
// Folders stay paths (the agent may open them itself); files arrive with their text.
import { spawn } from 'node:child_process';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  process.stderr.write('usage: agent-prompt.mjs CMD [ARGS…]  (CMD reads a prompt on stdin)\n');
  process.exit(2);
}
let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const payload = JSON.parse(input);

const parts = [payload.text];
if (payload.project) parts.push(`(working in the project ${payload.project})`);
for (const [i, f] of payload.files.entries()) {
  const note = f.error ? ` (not readable: ${f.error})` : f.truncated ? ' (truncated)' : '';
  parts.push(`[attached_file ${i + 1}] ${f.path}${note}\n${f.text}`);
}
const child = spawn(cmd, args, { stdio: ['pipe', 'inherit', 'inherit'] });
child.on('error', (err) => {
  process.stderr.write(`agent-prompt: ${cmd}: ${err.message}\n`);
  process.exit(127);
});
child.stdin.on('error', () => {});
child.stdin.end(parts.join('\n\n'));
child.on('close', (code) => process.exit(code ?? 1));
