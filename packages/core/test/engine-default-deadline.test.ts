// Issue 12 item 7: the js engine has a deadline even when the caller sets none (fails without it: `(a+a+)+y` over
// a 50 KB line of `a`s ran past 60 s). An injected clock passes the default deadline at once: no waiting.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { search } from '../src/engine/index.js';
import { deadlineMsOf } from '../src/engine/search.js';
import { JS_ENGINE_DEFAULT_DEADLINE_MS } from '../src/limits.js';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-js-deadline-'));
  fs.writeFileSync(path.join(dir, 'a.txt'), `${'a'.repeat(50_000)}\n`);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the js engine never runs without a deadline 🔒', () => {
  it('a search with no deadlineMs stops at JS_ENGINE_DEFAULT_DEADLINE_MS and says timeout', async () => {
    let calls = 0;
    // The first reading sets the deadline; every later one is past it.
    const now = () => (calls++ === 0 ? 0 : JS_ENGINE_DEFAULT_DEADLINE_MS + 1);
    let outcome: string | undefined;
    for await (const e of search({ pattern: '(a+a+)+y', paths: [dir], engine: 'js', now })) {
      if (e.type === 'summary') outcome = e.summary.outcome;
    }
    expect(outcome).toBe('timeout');
  });
});

describe('the deprecated timeoutMs', () => {
  it('is read as deadlineMs when deadlineMs is unset, and never over it', () => {
    expect(deadlineMsOf({ timeoutMs: 700 })).toBe(700);
    expect(deadlineMsOf({ deadlineMs: 300, timeoutMs: 700 })).toBe(300);
    expect(deadlineMsOf({})).toBeUndefined();
  });
});
