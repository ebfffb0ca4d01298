// Secrets stay out of the model's context: every MCP tool redacts credential-shaped values in what it returns and
// says how many; `redact: false` (trawl mcp --no-redact) returns them raw.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkedTools, linkServer } from './mcp-helpers.js';

// Built at run time, so no credential-shaped literal sits in the repository.
const STRIPE = `sk_live_${'a1B2c3D4e5F6g7H8'.repeat(2)}`;
const AWS = `aws_secret_access_key = ${'wJalrXUtnFEMIK7MDENGbPxRfiCY'.padEnd(40, 'Q')}`;
const KEY_BODY = 'MIIEowIBAAKCAQEA'.padEnd(64, 'AbCdEf0123456789');
const KEY = [
  '-----BEGIN RSA PRIVATE KEY-----',
  KEY_BODY,
  KEY_BODY.split('').reverse().join(''),
  '-----END RSA PRIVATE KEY-----',
].join('\n');

let proj: string;
let tools: LinkedTools;
let raw: LinkedTools;

beforeAll(async () => {
  proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-mcp-redact-')));
  fs.mkdirSync(path.join(proj, 'conf'));
  fs.writeFileSync(path.join(proj, 'conf', 'deploy.pem'), `${KEY}\n`);
  fs.writeFileSync(path.join(proj, 'conf', 'aws.ini'), `[default]\n${AWS}\n`);
  fs.writeFileSync(path.join(proj, 'conf', 'pay.env'), `STRIPE=${STRIPE}\n`);
  // A file named with a token: find_files and list_dir return names.
  fs.writeFileSync(path.join(proj, `${STRIPE}.txt`), 'x\n');
  tools = await linkServer({ root: proj, engine: 'js' });
  raw = await linkServer({ root: proj, engine: 'js', redact: false });
});

afterAll(async () => {
  await tools?.close();
  await raw?.close();
  fs.rmSync(proj, { recursive: true, force: true });
});

const text = (r: { content: Array<{ text: string }> }) => r.content[0]!.text;

describe('MCP tools redact credential-shaped values by default', () => {
  it('search: the key body, the AWS secret and the Stripe key never reach the text, and the count is said', async () => {
    const r = await tools.call('search', {
      pattern: 'PRIVATE KEY|aws_secret|sk_live',
      paths: ['.'],
      context: 2,
    });
    const t = text(r);
    expect(t).not.toContain(KEY_BODY);
    expect(t).not.toContain('wJalrXUtnFEMI');
    expect(t).not.toContain(STRIPE);
    expect(t).toContain('[REDACTED: private-key]');
    expect(t).toContain('aws_secret_access_key = [REDACTED: aws-secret]');
    // The key (once, however many lines), the AWS secret and the Stripe key.
    expect((r.structuredContent as { redacted: number }).redacted).toBe(3);
    expect(t).toContain('3 credential-shaped values were redacted');
  });

  it('grep_files, find_files and list_dir say what they redacted', async () => {
    const grep = await tools.call('grep_files', { query: 'sk_live' });
    expect(text(grep)).not.toContain(STRIPE);
    expect(text(grep)).toMatch(/credential-shaped values? (was|were) redacted/);
    const find = await tools.call('find_files', { query: 'sk_live' });
    expect(text(find)).not.toContain(STRIPE);
    expect(text(find)).toContain('[REDACTED: stripe-key].txt');
    expect(text(find)).toContain('1 credential-shaped value was redacted');
    const list = await tools.call('list_dir', {});
    expect(text(list)).not.toContain(STRIPE);
    expect((list.structuredContent as { redacted: number }).redacted).toBe(1);
    expect(JSON.stringify(list.structuredContent)).not.toContain(STRIPE);
  });

  it('redact: false (trawl mcp --no-redact) returns what the files hold', async () => {
    const r = await raw.call('search', {
      pattern: 'PRIVATE KEY|aws_secret|sk_live',
      paths: ['.'],
      context: 2,
    });
    expect(text(r)).toContain(KEY_BODY);
    expect(text(r)).toContain(STRIPE);
    expect(text(r)).not.toContain('redacted');
    expect(text(await raw.call('grep_files', { query: 'sk_live' }))).toContain(STRIPE);
    expect(text(await raw.call('list_dir', {}))).toContain(STRIPE);
  });
});
