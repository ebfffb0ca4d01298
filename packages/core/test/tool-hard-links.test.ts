import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTool } from '../src/tool/index.js';

/**
 * The search tool refuses a hard link to a credential file by what it is: named, it says so once; walked, both engines
 * leave it out unnamed, as the walk leaves the fenced path itself out.
 */

const CANARY = 'CANARYtoolln77';
let tmp: string;
let home: string;
let proj: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-tool-links-')));
  home = path.join(tmp, 'home');
  proj = path.join(tmp, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.mkdirSync(proj);
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), `needle ${CANARY}\n`);
  fs.linkSync(path.join(home, '.ssh', 'id_rsa'), path.join(proj, 'k.txt'));
  fs.writeFileSync(path.join(proj, 'ok.txt'), 'needle ok\n');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('search tool: a hard link to a credential file', () => {
  for (const engine of ['js', 'rg'] as const) {
    for (const paths of ['.', 'k.txt']) {
      it(`is not read (${engine}, paths ${paths}), and is named only when named`, async () => {
        const r = await searchTool({ pattern: 'needle', paths }, { cwd: proj, homeDir: home, engine });
        expect(r.text).not.toContain(CANARY);
        if (paths === '.') expect(r.text).toContain('needle ok');
        const noted = r.text.split('k.txt (a hard link to a sensitive file').length - 1;
        // A file named is said not to be read; a walk leaves the link out as it leaves out what it excludes.
        expect(noted).toBe(paths === 'k.txt' ? 1 : 0);
      });
    }
  }
});
