import { describe, expect, it } from 'vitest';
import { LineRedactor, redactValues } from '../src/redact/tool-output.js';

// Built at run time, so no credential-shaped literal sits in the repository.
const body = (seed: string) => `MII${seed}`.padEnd(64, 'AbCdEf0123456789+/');
const KEY_LINES = [
  '-----BEGIN RSA PRIVATE KEY-----',
  body('Eow'),
  body('Qzx'),
  'Xy9kQ==',
  '-----END RSA PRIVATE KEY-----',
];

describe('the tool redactor', () => {
  it('counts every value it replaces, credentials and exfiltration URLs alike', () => {
    const secret = `aws_secret_access_key = ${'wJalrXUtnFEMI/K7MDENG/bPxRfiCY'.padEnd(40, 'Q')}`;
    const r = redactValues(`${secret} and sk_live_${'a1B2c3D4e5F6g7H8'.repeat(2)}`);
    expect(r.count).toBe(2);
    expect(r.text).toBe('aws_secret_access_key = [REDACTED: aws-secret] and [REDACTED: stripe-key]');
    expect(redactValues('nothing to see').count).toBe(0);
  });

  it('a private key shown line by line is replaced whole and counted once', () => {
    const red = new LineRedactor();
    const shown = KEY_LINES.map((t, k) => red.line(10 + k, t));
    expect(shown).toEqual(Array(5).fill('[REDACTED: private-key]'));
    expect(red.count).toBe(1);
    // The line after the key is its own again.
    expect(red.line(15, 'const x = 1;')).toBe('const x = 1;');
  });

  it("a key's body is replaced when its BEGIN line is not shown (a match inside the key)", () => {
    const red = new LineRedactor();
    expect(red.line(12, KEY_LINES[2]!)).toBe('[REDACTED: private-key]');
    expect(red.line(13, KEY_LINES[3]!)).toBe('[REDACTED: private-key]');
    expect(red.line(14, KEY_LINES[4]!)).toBe('[REDACTED: private-key]');
    expect(red.count).toBe(1);
  });

  it('leaves a hex digest and ordinary code alone', () => {
    const red = new LineRedactor();
    const hex = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(red.line(1, hex)).toBe(hex);
    expect(red.line(2, '  return value;')).toBe('  return value;');
    expect(red.count).toBe(0);
  });
});
