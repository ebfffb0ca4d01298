import { describe, expect, it } from 'vitest';
import { IndexAnswers } from '../src/http/index-answers.js';
import { PROJECT_RESOLVE_TTL_MS } from '../src/http/limits.js';
import { ResolveCache } from '../src/http/resolve-cache.js';
import type { ServerTaskRunner } from '../src/http/tasks.js';

const row = (name: string) => ({ path: `/p/${name}`, name, kind: 'file' as const, size: 1, mtime: 1 });

describe('IndexAnswers (the index host reuses an answer only while nothing changed)', () => {
  it('shares one ranking between identical searches, and ranks again on a new generation or after the TTL', async () => {
    let clock = 0;
    const cache = new IndexAnswers(() => clock, 2_000, 8);
    let ranked = 0;
    const compute = async () => {
      ranked++;
      return { results: [row(`r${ranked}`)], entries: 10 };
    };
    const key = { root: '/p', query: 'main', limit: 15, kinds: 'all' };
    const [a, b] = await Promise.all([cache.get(key, '1:0', compute), cache.get(key, '1:0', compute)]);
    expect(ranked).toBe(1);
    expect(b).toBe(a);
    expect(await cache.get({ ...key, limit: 5 }, '1:0', compute)).not.toBe(a);
    expect(ranked).toBe(2);
    // An entry added or removed (or a rebuild) changes the generation: never the old answer.
    await cache.get(key, '1:1', compute);
    expect(ranked).toBe(3);
    clock = 1_999;
    await cache.get(key, '1:1', compute);
    expect(ranked).toBe(3);
    clock = 3_000;
    await cache.get(key, '1:1', compute);
    expect(ranked).toBe(4);
  });

  it('keeps no unusable or failed answer, and at most `max` answers', async () => {
    const cache = new IndexAnswers(() => 0, 2_000, 2);
    let calls = 0;
    const key = (q: string) => ({ root: '/p', query: q, limit: 15, kinds: 'all' });
    await cache.get(key('a'), 'g', async () => {
      calls++;
      return undefined;
    });
    await cache.get(key('a'), 'g', async () => {
      calls++;
      return undefined;
    });
    expect(calls).toBe(2);
    await expect(cache.get(key('b'), 'g', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    const ok = async () => {
      calls++;
      return { results: [], entries: 0 };
    };
    await cache.get(key('b'), 'g', ok);
    expect(calls).toBe(3);
    await cache.get(key('c'), 'g', ok);
    await cache.get(key('d'), 'g', ok);
    await cache.get(key('b'), 'g', ok); // evicted by c and d
    expect(calls).toBe(6);
  });
});

describe('ResolveCache (?project= resolutions reused briefly)', () => {
  it('reuses an accepted root within the TTL, decides a refusal afresh each time', async () => {
    let clock = 0;
    const asked: string[] = [];
    const probe: ServerTaskRunner = {
      run: async <T>(_task: string, payload: unknown) => {
        const p = (payload as { project: string }).project;
        asked.push(p);
        return (p.includes('ssh') ? { status: 'sensitive', path: p } : { status: 'ok', root: p }) as T;
      },
    };
    const cache = new ResolveCache(probe, () => clock);
    await Promise.all([cache.resolve('/p'), cache.resolve('/p')]);
    await cache.resolve('/p');
    expect(asked).toEqual(['/p']);
    await cache.resolve('/home/.ssh');
    await cache.resolve('/home/.ssh');
    expect(asked).toEqual(['/p', '/home/.ssh', '/home/.ssh']);
    clock = PROJECT_RESOLVE_TTL_MS;
    await cache.resolve('/p');
    expect(asked).toEqual(['/p', '/home/.ssh', '/home/.ssh', '/p']);
  });
});
