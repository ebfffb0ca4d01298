import { describe, expect, it } from 'vitest';
import { fuzzyQuality, fuzzyQualityDense } from '../src/names/fuzzy.js';
import {
  NAME_DEFAULT_LIMIT,
  NAME_LIMIT_CEILING,
  NAME_LIMIT_FLOOR,
  normaliseNameLimit,
  parseNameKinds,
} from '../src/names/index.js';
import { lexicalMayMatch, lexicalScoreTarget } from '../src/names/lexical.js';
import { prepareNameQuery } from '../src/names/query.js';
import { referenceFuzzyScore } from '../src/names/reference-score.js';
import { fuzzyScore, scoreTarget } from '../src/names/score.js';
import { nameTarget } from '../src/names/target.js';
import { clampNameLimit, compareRanked } from '../src/names/types.js';

/** Ranks `rels` for `q` with trawl's scorer and the reference order (dirs end with `/`). */
function rank(q: string, rels: string[]): string[] {
  const query = prepareNameQuery(q)!;
  return rels
    .map((r, i) => {
      const isDir = r.endsWith('/');
      const rel = isDir ? r.slice(0, -1) : r;
      const t = nameTarget(rel, isDir);
      const match = { aliasOnly: false };
      const score = scoreTarget(query, t, match);
      return {
        r,
        i,
        score,
        isDir,
        nameLength: rel.length - t.nameStart,
        mtimeMs: 0,
        aliasOnly: match.aliasOnly,
      };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => compareRanked(a, b) || a.i - b.i)
    .map((x) => x.r);
}

describe('the reference scorer, as the reference wrote it', () => {
  it('gives the pinned values', () => {
    expect(referenceFuzzyScore('ab', 'ab.py', 'ab.py')).toBeCloseTo(104.5, 6);
    expect(referenceFuzzyScore('ab', 'abc.py', 'abc.py')).toBeCloseTo(54.4, 6);
    expect(referenceFuzzyScore('ab', 'abcdef.py', 'abcdef.py')).toBeCloseTo(54.1, 6);
    expect(referenceFuzzyScore('xyz', 'abc.py', 'abc.py')).toBe(0);
  });

  it('scores a subsequence by its greedy run, not the longest contiguous one', () => {
    // 'abc' over 'abxabxc': greedy takes a@0 b@1 (run 2) then c@6; the later 'ab' run is never seen
    // → 5 + 15 * 2/3 + 5 * 3/7, plus 5 - 0.7
    expect(referenceFuzzyScore('abc', 'abxabxc', 'abxabxc')).toBeCloseTo(5 + 10 + 15 / 7 + 4.3, 6);
    // 'ac' over 'abxaxc': runs of 1 only
    expect(referenceFuzzyScore('ac', 'abxaxc', 'abxaxc')).toBeCloseTo(5 + 7.5 + 5 * (2 / 6) + 4.4, 6);
  });

  it('falls back to the path, but the length bonus stays the name length', () => {
    expect(referenceFuzzyScore('myfeature', 'utils.py', 'myfeature/utils.py')).toBeCloseTo(10 + 5 - 0.8, 6);
  });
});

describe("trawl's scorer keeps the reference's pinned orderings", () => {
  it('exact stem > prefix > longer prefix (test_sort_shorter_name_first)', () => {
    expect(rank('ab', ['abcdef.py', 'abc.py', 'ab.py'])).toEqual(['ab.py', 'abc.py', 'abcdef.py']);
  });

  it('exact name beats prefix and substring (test_exact_name_beats_substring)', () => {
    expect(rank('config', ['myconfig.py', 'config_loader.py', 'config.py'])[0]).toBe('config.py');
  });

  it('prefix beats infix (test_prefix_beats_infix)', () => {
    expect(rank('test', ['my_test.py', 'test_utils.py'])[0]).toBe('test_utils.py');
  });

  it('matches characters in order (test_fuzzy_char_order_match)', () => {
    expect(rank('flspy', ['readme.md', 'files.py'])).toEqual(['files.py']);
  });

  it('does not match what lacks the characters (test_fuzzy_no_match_excluded)', () => {
    expect(rank('xyz', ['abc.py'])).toEqual([]);
    expect(fuzzyScore('xyz', 'abc.py', 'abc.py')).toBe(0);
  });

  it('ranks a name match above a path match (test_path_match_ranked_below_name_match)', () => {
    expect(rank('myfeature', ['myfeature/utils.py', 'myfeature.py'])).toEqual([
      'myfeature.py',
      'myfeature/utils.py',
    ]);
  });
});

describe("where trawl's scorer goes beyond the reference", () => {
  it('rewards word and camelCase boundaries', () => {
    expect(rank('fb', ['src/fubar.ts', 'src/FooBar.ts'])[0]).toBe('src/FooBar.ts');
    expect(rank('usest', ['lib/museStack.ts', 'hooks/useState.ts'])[0]).toBe('hooks/useState.ts');
  });

  it('treats separators as insignificant when the rest is equal (mmapc = mmap.c)', () => {
    expect(rank('mmapc', ['mm/mmap_lock.c', 'mm/mmap.c', 'mm/mmapc_helper.c'])[0]).toBe('mm/mmap.c');
    expect(rank('usestate', ['x/useStateLater.ts', 'hooks/use-state.ts'])[0]).toBe('hooks/use-state.ts');
  });

  it('scores a query with / against the directories, in order, and the last segment against the name', () => {
    const rels = [
      'net/ipv4/tcp_input.c',
      'net/ipv6/tcp_ipv6.c',
      'net/ipv4/tcp.c',
      'drivers/net/tcp.c',
      'net/ipv4/',
    ];
    expect(rank('net/ipv4/tcp', rels)[0]).toBe('net/ipv4/tcp.c');
    expect(rank('net/ipv4/tcp', rels)).not.toContain('net/ipv6/tcp_ipv6.c');
    expect(rank('net/ipv4', rels)[0]).toBe('net/ipv4/');
  });

  it('prefers an exactly named ancestor over a parent the segment is only a prefix of', () => {
    expect(rank('nvme/core', ['drivers/nvmem/core.c', 'drivers/nvme/host/core.c'])[0]).toBe(
      'drivers/nvme/host/core.c',
    );
  });

  it('reads words separated by spaces as path segments or as one word', () => {
    expect(rank('ext4 inode', ['fs/ext2/inode.c', 'fs/ext4/inode.c', 'fs/ext4/inode-test.c'])[0]).toBe(
      'fs/ext4/inode.c',
    );
    expect(rank('tcp input', ['net/ipv4/tcp.c', 'net/ipv4/tcp_input.c'])[0]).toBe('net/ipv4/tcp_input.c');
  });

  it('spans directories and name in one fuzzy match (ext4inode → fs/ext4/inode.c)', () => {
    expect(
      rank('ext4inode', ['fs/ext4/xattr.c', 'fs/ext4/inode.c', 'Documentation/ext4/inodes.rst'])[0],
    ).toBe('fs/ext4/inode.c');
  });

  it("lets a directory's main file (index.*, or named after its directory) win over the directory", () => {
    expect(rank('router', ['lib/router/', 'lib/router/index.js', 'lib/router/layer.js'])[0]).toBe(
      'lib/router/index.js',
    );
    expect(rank('button', ['Button/', 'Button/Button.tsx', 'Button/Button.test.tsx'])[0]).toBe(
      'Button/Button.tsx',
    );
  });

  it('puts a file matched by its own name before one matched only as its directory main file', () => {
    expect(rank('schema', ['lib/schema/', 'lib/schema/index.js', 'lib/schema.js'])).toEqual([
      'lib/schema.js',
      'lib/schema/index.js',
      'lib/schema/',
    ]);
    expect(rank('linter', ['lib/linter/index.js', 'lib/linter/linter.js'])[0]).toBe('lib/linter/linter.js');
  });

  it('puts a file before the same-named directory (the extension is not extra text)', () => {
    expect(rank('schema', ['lib/schema/', 'lib/schema.js'])).toEqual(['lib/schema.js', 'lib/schema/']);
  });

  it('prefers the shallower of two equal names', () => {
    expect(rank('kconfig', ['arch/x86/Kconfig', 'Kconfig', 'mm/Kconfig'])).toEqual([
      'Kconfig',
      'mm/Kconfig',
      'arch/x86/Kconfig',
    ]);
  });

  it('does not let a / in the query match anything but a /', () => {
    expect(rank('a/b', ['ab.txt', 'axb.txt'])).toEqual([]);
  });
});

describe('the fuzzy alignment', () => {
  it('computes the same quality sparsely as the dense oracle', () => {
    // deterministic pseudo-random strings over a small alphabet that hits boundaries, runs and gaps
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const alphabet = 'abcAB_/.-xyZ1';
    let compared = 0;
    for (let n = 0; n < 4000; n++) {
      let rel = '';
      const len = 1 + rnd(28);
      for (let i = 0; i < len; i++) rel += alphabet[rnd(alphabet.length)];
      rel = rel.replace(/\/+/g, '/').replace(/^\/|\/$/g, '') || 'a';
      let q = '';
      const ql = 1 + rnd(5);
      for (let i = 0; i < ql; i++) q += 'abc_/1xy'[rnd(8)];
      const t = nameTarget(rel, false);
      const sparse = fuzzyQuality(q, t);
      expect(sparse).toBeCloseTo(fuzzyQualityDense(q, t), 9);
      if (sparse > 0) compared++;
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('prefers adjacent matched characters', () => {
    const q = 'abc';
    expect(fuzzyQuality(q, nameTarget('xabcx', false))).toBeGreaterThan(
      fuzzyQuality(q, nameTarget('xaxbxcx', false)),
    );
  });
});

describe('query and parameter normalisation', () => {
  it('normalises the query: case, backslashes, leading ./ and /, a trailing / meaning a directory', () => {
    const q = prepareNameQuery('  ./Src\\Util/ ')!;
    expect(q.text).toBe('src/util');
    expect(q.name).toBe('util');
    expect(q.dirSegments).toEqual(['src']);
    expect(q.wantsDir).toBe(true);
    expect(prepareNameQuery('   ')).toBeNull();
  });

  it('clamps the limit like the endpoint', () => {
    expect(normaliseNameLimit(undefined)).toBe(NAME_DEFAULT_LIMIT);
    expect(normaliseNameLimit('30')).toBe(30);
    expect(normaliseNameLimit('1000')).toBe(NAME_LIMIT_CEILING);
    expect(normaliseNameLimit('abc')).toBe(NAME_DEFAULT_LIMIT);
    expect(normaliseNameLimit('2.5')).toBe(NAME_DEFAULT_LIMIT);
    expect(normaliseNameLimit('0')).toBe(NAME_LIMIT_FLOOR);
    expect(normaliseNameLimit('-5')).toBe(NAME_LIMIT_FLOOR);
    expect(clampNameLimit(7, 15, 1, 60)).toBe(7);
  });

  it('reads kinds like the endpoint: anything unrecognised is all', () => {
    expect(parseNameKinds(' FILES ')).toBe('files');
    expect(parseNameKinds('dirs')).toBe('dirs');
    expect(parseNameKinds('folders')).toBe('all');
    expect(parseNameKinds(undefined)).toBe('all');
  });
});

describe('lexicalMayMatch (the index skips preparing a target it says no to)', () => {
  // Every path × query pair: a "no" must mean the lexical tiers score 0, or the cold index would lose a hit.
  const paths = [
    'mm/mmap.c',
    'arch/x86/mm/mmap.c',
    'Documentation/CodingStyle',
    'Documentation/process/coding-style.rst',
    'src/router/index.js',
    'router/router.ts',
    'pkg/__init__.py',
    'src/lib/mod.rs',
    'a/b/Foo_Bar-baz.test.ts',
    'kernel/sched/core.c',
    'include/linux/sched.h',
    'x/.hidden',
    'x/..',
    'docs/my notes.txt',
    'ext4/inode.c',
    'fs/ext4/inode.c',
    'Makefile',
    'tools/Makefile.include',
    'drivers/usb/core/hub.c',
    'net/ipv4/tcp_input.c',
  ];
  const queries = [
    'mmap',
    'mm/mmap',
    'mmapc',
    'coding style',
    'codingstyle',
    'coding-style',
    'router',
    'init',
    'mod',
    'foobar',
    'foo_bar',
    'bar-baz',
    'sched/core',
    'sched.h',
    'my notes',
    'ext4 inode',
    'make',
    'makefileinclude',
    'usb hub',
    'tcp input',
    'tcpinput',
    'hub.c',
    'x',
    'zz',
    'lib/mod',
  ];
  it('never says no to a candidate the lexical tiers score', () => {
    let yes = 0;
    let no = 0;
    for (const rel of paths) {
      for (const raw of queries) {
        const q = prepareNameQuery(raw)!;
        const t = nameTarget(rel, false);
        const may = lexicalMayMatch(q, t.lower, t.nameStart);
        if (!may) expect(lexicalScoreTarget(q, t), `${raw} → ${rel}`).toBe(0);
        if (may) yes++;
        else no++;
      }
    }
    // both answers occur, or the check above compared nothing
    expect(yes).toBeGreaterThan(20);
    expect(no).toBeGreaterThan(100);
  });
});
