import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdmissionQueue } from '../src/http/admission.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AdmissionQueue (the admission wait of the pools and the grep host)', () => {
  it('hands out waiting calls oldest first', () => {
    const q = new AdmissionQueue<string>(3);
    for (const job of ['a', 'b', 'c']) expect(q.wait(job, 1_000, () => {})).toBe(true);
    expect([q.next(), q.next(), q.next(), q.next()]).toEqual(['a', 'b', 'c', undefined]);
    expect(q.refusals).toBe(0);
  });

  it('refuses at once beyond its bound or with no time to wait, counting each refusal', () => {
    const q = new AdmissionQueue<string>(1);
    expect(q.wait('first', 1_000, () => {})).toBe(true);
    expect(q.wait('over the bound', 1_000, () => {})).toBe(false);
    expect(q.wait('no time', 0, () => {})).toBe(false);
    expect(q.length).toBe(1);
    expect(q.refusals).toBe(2);
  });

  it('withdraws a call whose wait ran out (and only that one), telling its caller', () => {
    const q = new AdmissionQueue<string>(5);
    const expired: string[] = [];
    q.wait('short', 100, () => expired.push('short'));
    q.wait('long', 10_000, () => expired.push('long'));
    q.wait('forever', Number.POSITIVE_INFINITY, () => expired.push('forever'));
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['short']);
    expect(q.refusals).toBe(1);
    expect(q.next()).toBe('long');
    // Taken out before its wait ran out: never reported expired.
    vi.advanceTimersByTime(1_000_000);
    expect(expired).toEqual(['short']);
    expect(q.drain()).toEqual(['forever']);
    expect(q.length).toBe(0);
  });
});
