import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CompletionRequest,
  type DirOpener,
  listCompletion,
  pathOpener,
  procFdOpener,
  unavailableOpener,
} from '../src/complete/index.js';
import { SensitiveFence } from '../src/fence/index.js';
import { TempTrees } from './fixtures/temp-trees.js';

// A fake HOME under a temp dir: the real ~/.ssh is never touched.
let trees: TempTrees;
let tmp: string;
let home: string;
let outside: string;
let fence: SensitiveFence;
const linux = process.platform === 'linux';

beforeAll(() => {
  trees = new TempTrees('trawl-complete-', ['id_rsa']);
  tmp = trees.dir;
  home = trees.home;
  fence = new SensitiveFence({ home, env: {} });
  outside = path.join(tmp, 'outside');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secrets.txt'), 'secret');
});

afterAll(() => trees.remove());

const project = () => trees.completionProject();

function list(p: string, dir: string, q = '', extra: Partial<CompletionRequest> = {}) {
  return listCompletion({ project: p, dir, q, fence, home, ...extra });
}
const names = (o: ReturnType<typeof list>) => o.rows.map((r) => r.name);

describe('listCompletion: one directory level', () => {
  it('lists the project root for a bare ./, directories first', () => {
    const p = project();
    const o = list(p, './');
    expect(o.status).toBe('ok');
    expect(names(o)).toEqual(['src', 'readme.md']);
    expect(o.rows[0]!.kind).toBe('dir');
    expect(o.root).toBe(fs.realpathSync(p));
  });

  it('lists a subdirectory', () => {
    expect(names(list(project(), './src/'))).toEqual(['appdata', 'app.ts']);
  });

  it('narrows by a case-insensitive prefix', () => {
    expect(names(list(project(), './', 'READ'))).toEqual(['readme.md']);
  });

  it('hides dot entries until the dot is typed', () => {
    const p = project();
    expect(names(list(p, './'))).not.toContain('.env');
    expect(names(list(p, './', '.'))).toEqual(['.env']);
  });

  it('reports lstat metadata: file size, whole-second mtime, size 0 for directories', () => {
    const p = project();
    const rows = list(p, './').rows;
    const readme = rows.find((r) => r.name === 'readme.md')!;
    const st = fs.lstatSync(path.join(p, 'readme.md'));
    expect(readme).toEqual({
      path: path.join(p, 'readme.md'),
      name: 'readme.md',
      kind: 'file',
      size: 6,
      mtime: Math.floor(st.mtimeMs / 1000),
    });
    expect(rows.find((r) => r.name === 'src')!.size).toBe(0);
  });

  it('caps the rows at 50 after sorting', () => {
    const p = project();
    fs.mkdirSync(path.join(p, 'many'));
    for (let i = 0; i < 60; i++)
      fs.writeFileSync(path.join(p, 'many', `f${String(i).padStart(2, '0')}.txt`), '');
    const o = list(p, './many/');
    expect(o.rows).toHaveLength(50);
    expect(o.rows[0]!.name).toBe('f00.txt');
    expect(o.rows[49]!.name).toBe('f49.txt');
  });

  it('counts every examined entry against the scan budget, including the ones a filter drops', () => {
    const p = project();
    fs.mkdirSync(path.join(p, 'big'));
    for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(p, 'big', `e${i}`), '');
    const none = list(p, './big/', 'zzz', { maxScan: 10 });
    expect(none.scanned).toBe(10);
    const some = list(p, './big/', '', { maxScan: 10 });
    expect(some.rows.length).toBe(10);
  });

  it('a missing directory is `missing`, not an error', () => {
    const o = list(project(), './nope/');
    expect(o.status).toBe('missing');
    expect(o.rows).toEqual([]);
  });

  it('a regular file at a component is refused', () => {
    const o = list(project(), './readme.md/');
    expect(o.status).toBe('refused');
    expect(o.detail).toContain('file');
  });
});

describe('listCompletion: containment 🔒', () => {
  it('a parent run that escapes the project is `outside`', () => {
    const o = list(project(), '../outside/');
    expect(o.status).toBe('outside');
    expect(o.rows).toEqual([]);
  });

  it('a parent run inside the project still resolves', () => {
    expect(names(list(project(), './src/../'))).toEqual(['src', 'readme.md']);
  });

  it('a leading parent run that comes back inside lists entries', () => {
    const p = project();
    expect(names(list(p, `../${path.basename(p)}/src/`))).toEqual(['appdata', 'app.ts']);
  });

  it('an absolute dir is not honoured', () => {
    expect(list(project(), outside).status).toBe('outside');
    expect(list(project(), `${outside}/`).rows).toEqual([]);
  });

  it('a symlink out of the project is refused, not followed', () => {
    const p = project();
    fs.symlinkSync(outside, path.join(p, 'link'));
    const o = list(p, './link/');
    expect(o.status).toBe('refused');
    expect(o.rows).toEqual([]);
    expect(o.detail).toContain('symlink');
  });

  it('a symlink that stays inside is refused too: no link is ever entered', () => {
    const p = project();
    fs.symlinkSync(path.join(p, 'src'), path.join(p, 'inner'));
    expect(list(p, './inner/').status).toBe('refused');
  });

  it('a link is never offered, whatever it points at', () => {
    const p = project();
    fs.symlinkSync('//attacker/share/secrets', path.join(p, 'share'));
    fs.symlinkSync(outside, path.join(p, 'out'));
    fs.symlinkSync(path.join(p, 'src'), path.join(p, 'in'));
    fs.symlinkSync(path.join(p, 'readme.md'), path.join(p, 'readme-link.md'));
    expect(names(list(p, './'))).toEqual(['src', 'readme.md']);
  });

  it.runIf(linux)('a FIFO at a component is refused at once (no blocking open)', () => {
    const p = project();
    execFileSync('mkfifo', [path.join(p, 'pipe')]);
    expect(list(p, './pipe/').status).toBe('refused');
    expect(list(p, './', 'pi').rows).toEqual([
      expect.objectContaining({ name: 'pipe', kind: 'file', size: 0 }),
    ]);
  });
});

describe('listCompletion: nothing caller-supplied is ever resolved 🔒', () => {
  /** A resolver that records (and refuses) any path other than the server-held project. */
  function tripwire(p: string) {
    const violations: string[] = [];
    const handed: string[] = [];
    const realpath = (arg: string) => {
      handed.push(arg);
      if (arg.includes('attacker') || arg !== p) {
        violations.push(arg);
        throw new Error(`tripwire: resolver handed a caller-influenced path ${arg}`);
      }
      return fs.realpathSync(arg);
    };
    return { realpath, violations, handed };
  }

  it('the resolver is handed only the server-held project (tripwire)', () => {
    const p = project();
    fs.symlinkSync('//attacker/share/secrets', path.join(p, 'share'));
    const t = tripwire(p);
    for (const dir of ['./', './src/', '../', '//attacker/share/', './share/', './share/x/', '../../etc/']) {
      list(p, dir, '', { realpath: t.realpath });
    }
    expect(names(list(p, './src/', '', { realpath: t.realpath }))).toEqual(['appdata', 'app.ts']);
    expect(t.violations).toEqual([]);
    expect(new Set(t.handed)).toEqual(new Set([p]));
  });

  it('the tripwire records a resolution of anything else (the test above can fail)', () => {
    const p = project();
    const t = tripwire(p);
    listCompletion({ project: path.join(p, 'src'), dir: './', q: '', fence, realpath: t.realpath });
    expect(t.violations).toEqual([path.join(p, 'src')]);
  });

  it('the fence is only ever asked the non-resolving question', () => {
    const p = project();
    const guarded = {
      isSensitiveCanonical: (x: string) => fence.isSensitiveCanonical(x),
      isSensitive: () => {
        throw new Error('tripwire: the resolving fence was called');
      },
      verdict: () => {
        throw new Error('tripwire: the resolving fence was called');
      },
    };
    expect(names(list(p, './', '', { fence: guarded }))).toEqual(['src', 'readme.md']);
    expect(names(list(p, './src/', '', { fence: guarded }))).toEqual(['appdata', 'app.ts']);
  });
});

/** An opener that delegates to the real one, with hooks after single steps. */
function hooked(
  base: DirOpener,
  hooks: {
    afterRoot?: () => void;
    afterChild?: (name: string) => void;
    witness?: (real: string | null) => string | null;
  },
): DirOpener {
  return {
    ...base,
    kind: base.kind,
    openRoot(root) {
      const d = base.openRoot(root);
      hooks.afterRoot?.();
      return d;
    },
    openChild(parent, name) {
      const d = base.openChild(parent, name);
      hooks.afterChild?.(name);
      return d;
    },
    witness(d) {
      const w = base.witness(d);
      return hooks.witness ? hooks.witness(w) : w;
    },
  };
}

describe.runIf(linux)('listCompletion: the descriptor walk (/proc/self/fd) 🔒', () => {
  it('a directory swapped for a link mid-walk is refused', () => {
    const p = project();
    const opener = hooked(procFdOpener(), {
      afterRoot: () => {
        fs.renameSync(path.join(p, 'src'), path.join(p, 'src.moved'));
        fs.symlinkSync(outside, path.join(p, 'src'));
      },
    });
    const o = list(p, './src/', '', { opener });
    expect(o.status).toBe('refused');
    expect(o.rows).toEqual([]);
    expect(o.detail).toContain('symlink');
  });

  it('a directory renamed and replaced by a link AFTER it was opened: the held directory is what gets listed', () => {
    const p = project();
    const opener = hooked(procFdOpener(), {
      afterChild: (name) => {
        if (name !== 'src') return;
        fs.renameSync(path.join(p, 'src'), path.join(p, 'src.moved'));
        fs.symlinkSync(outside, path.join(p, 'src'));
      },
    });
    const o = list(p, './src/', '', { opener });
    expect(o.status).toBe('ok');
    expect(names(o)).toEqual(['appdata', 'app.ts']);
    expect(o.witness).toBe(path.join(p, 'src.moved'));
    expect(o.rows.every((r) => r.path.startsWith(path.join(p, 'src.moved')))).toBe(true);
    expect(names(o)).not.toContain('secrets.txt');
  });

  it('a held directory moved OUT of the project is refused as outside by its witness', () => {
    const p = project();
    const away = trees.fresh('away');
    const opener = hooked(procFdOpener(), {
      afterChild: (name) => {
        if (name === 'src') fs.renameSync(path.join(p, 'src'), away);
      },
    });
    const o = list(p, './src/', '', { opener });
    expect(o.status).toBe('outside');
    expect(o.rows).toEqual([]);
  });

  it('a directory deleted while held has no witness: refused (fail closed)', () => {
    const p = project();
    fs.mkdirSync(path.join(p, 'gone'));
    const opener = hooked(procFdOpener(), {
      afterChild: (name) => {
        if (name === 'gone') fs.rmdirSync(path.join(p, 'gone'));
      },
    });
    const o = list(p, './gone/', '', { opener });
    expect(o.status).toBe('refused');
    expect(o.detail).toBe('witness unavailable');
  });

  it('the fence judges the descriptor, not the typed name', () => {
    const p = project();
    fs.mkdirSync(path.join(p, 'SSH~1'));
    fs.writeFileSync(path.join(p, 'SSH~1', 'id_rsa'), 'key');
    const local = new SensitiveFence({ home, env: {}, extra: [path.join(p, '.ssh')] });
    const opener = hooked(procFdOpener(), {
      witness: (w) => (w?.endsWith('SSH~1') ? path.join(p, '.ssh') : w),
    });
    const o = list(p, './SSH~1/', '', { opener, fence: local });
    expect(o.status).toBe('sensitive');
    expect(o.rows).toEqual([]);
  });

  it('an unreadable descriptor name fails closed', () => {
    const o = list(project(), './src/', '', { opener: hooked(procFdOpener(), { witness: () => null }) });
    expect(o.status).toBe('refused');
    expect(o.rows).toEqual([]);
  });

  it('a witness outside the root is refused as outside', () => {
    const o = list(project(), './src/', '', { opener: hooked(procFdOpener(), { witness: () => outside }) });
    expect(o.status).toBe('outside');
  });

  it('rejects a component that is not a single name', () => {
    const o = procFdOpener();
    const root = o.openRoot(tmp);
    try {
      for (const bad of ['', '.', '..', 'a/b', 'a\0b']) {
        expect(() => o.openChild(root, bad)).toThrow(/EINVAL/);
      }
    } finally {
      o.close(root);
    }
  });

  it('closes every descriptor it opened', () => {
    const p = project();
    const before = fs.readdirSync('/proc/self/fd').length;
    for (let i = 0; i < 50; i++) {
      list(p, './src/appdata/');
      list(p, './nope/deeper/');
      list(p, './readme.md/');
    }
    expect(fs.readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(before + 1);
  });
});

describe('listCompletion: the fence 🔒', () => {
  it('a sensitive project root is `sensitive`', () => {
    const always = { isSensitiveCanonical: () => true };
    expect(list(project(), './', '', { fence: always }).status).toBe('sensitive');
  });

  it('a sensitive entry is not offered', () => {
    const p = project();
    const readme = fs.realpathSync(path.join(p, 'readme.md'));
    const only = { isSensitiveCanonical: (x: string) => x === readme };
    expect(names(list(p, './', '', { fence: only }))).toEqual(['src']);
  });

  it('HOME as a project never offers its credential stores', () => {
    const o = list(home, './', '.');
    expect(o.status).toBe('ok');
    expect(names(o)).not.toContain('.ssh');
    expect(list(home, './.ssh/').status).toBe('sensitive');
  });
});

describe('listCompletion: other openers', () => {
  it('the race-narrowing path opener lists, and refuses links and files', () => {
    const p = project();
    fs.symlinkSync(outside, path.join(p, 'link'));
    const opener = pathOpener();
    expect(names(list(p, './src/', '', { opener }))).toEqual(['appdata', 'app.ts']);
    expect(list(p, './link/', '', { opener }).status).toBe('refused');
    expect(list(p, './readme.md/', '', { opener }).status).toBe('refused');
    expect(list(p, './nope/', '', { opener }).status).toBe('missing');
    expect(names(list(p, './', '', { opener }))).toEqual(['src', 'readme.md']);
  });

  it('the path opener refuses a directory whose identity changed between check and witness', () => {
    const p = project();
    const base = pathOpener();
    const opener = hooked(base, {
      afterChild: (name) => {
        if (name !== 'src') return;
        fs.renameSync(path.join(p, 'src'), path.join(p, 'src.moved'));
        fs.mkdirSync(path.join(p, 'src'));
      },
    });
    expect(list(p, './src/', '', { opener }).status).toBe('refused');
  });

  it('an unavailable opener refuses everything (fail closed)', () => {
    const o = list(project(), './', '', { opener: unavailableOpener('no /proc') });
    expect(o.status).toBe('refused');
  });
});
