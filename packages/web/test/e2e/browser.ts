/**
 * Debian's chromium driven by playwright-core (no browser download). `chromiumPath()` is null when it is absent;
 * tests then skip with the reason, unless TRAWL_REQUIRE_SYSTEM_DEPS=1 (CI), where its absence fails loudly.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function chromiumPath(): string | null {
  const env = process.env['TRAWL_CHROMIUM'];
  if (env) return fs.existsSync(env) ? env : null;
  return CHROMIUM_CANDIDATES.find((p) => fs.existsSync(p)) ?? null;
}

export const requireSystemDeps = process.env['TRAWL_REQUIRE_SYSTEM_DEPS'] === '1';

/** A headless chromium; playwright gives each launch a fresh, temporary profile (its own --user-data-dir). */
export async function launch(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const WEB = path.resolve(import.meta.dirname, '../..');
const ROOT = path.resolve(WEB, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

/** Builds the workbench when dist/ is missing or older than its sources (npm ci builds it; a test edit may not). */
export function ensureWebBuild(): void {
  const index = path.join(WEB, 'dist', 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sources = Math.max(
    newestMtime(path.join(WEB, 'src')),
    fs.statSync(path.join(WEB, 'index.html')).mtimeMs,
  );
  if (built > sources) return;
  // NODE_ENV as vitest sets it ('test') would make vite bundle React's development build (184 KiB gzip, not 119):
  // the tests run against the build that ships.
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', WEB], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error(`vite build failed:\n${r.stdout}\n${r.stderr}`);
}

export interface Served {
  url: string;
  origin: string;
  stop: () => Promise<void>;
  stderr: () => string;
}

/** Starts the real `trawl serve` on a free port and resolves with the URL it prints (with `#token=`). */
export function serve(args: string[], env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, [path.join(ROOT, 'packages/server/bin/trawl.js'), 'serve', ...args], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const url = out.slice(0, nl).trim();
      resolve({
        url,
        origin: new URL(url).origin,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.on('exit', (code) => reject(new Error(`trawl serve exited ${code}: ${stderr}`)));
  });
}
