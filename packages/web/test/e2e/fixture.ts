/**
 * The setup every workbench e2e file shares: a generated project under a temporary HOME, a real `trawl serve` on
 * it (with a fake agent when the file needs one), one chromium, and pages opened at a chosen size and colour
 * scheme. `describeWorkbench` declares the suite; without chromium it is skipped with the reason, or fails when
 * TRAWL_REQUIRE_SYSTEM_DEPS=1 (CI).
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, ensureWebBuild, launch, requireSystemDeps, type Served, serve } from './browser.js';

/** The repository's docs/, where screenshots go. */
export const DOCS = path.resolve(import.meta.dirname, '../../../../docs');
/** TRAWL_SCREENSHOTS=1 has the suites write their screenshots into docs/. */
export const SCREENSHOTS = process.env['TRAWL_SCREENSHOTS'] === '1';

export interface WorkbenchSetup {
  /** Names the temporary directory (`trawl-<prefix>-…`). */
  prefix: string;
  /** The project's files, by path relative to the project; a path ending in / is an empty directory. */
  files: Record<string, string>;
  /** The fake agent's source (an ES module reading the request on stdin), given the temporary directory. */
  agent?: (tmp: string) => string;
  /** More `trawl serve` flags. */
  serveArgs?: string[];
  /** Further known projects: empty directories beside the project, by name (`home/<name>`). */
  moreProjects?: string[];
}

export interface OpenOptions {
  width?: number;
  height?: number;
  scheme?: 'light' | 'dark';
  /** Lets a test check the renderer itself, without the page's CSP in front of it. */
  bypassCSP?: boolean;
  /** Runs on the new page before it loads the workbench (to route its requests). */
  beforeLoad?: (page: Page) => Promise<void>;
}

export interface Opened {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, in order. */
  errors: string[];
}

/** What a suite's tests use; filled in before the first test runs. */
export interface Workbench {
  tmp: string;
  home: string;
  proj: string;
  server: Served;
  browser: Browser;
  /** Writes a project file (its directories made). */
  write(rel: string, text: string): void;
  /** A new context and page on the workbench, waited until the composer is there. */
  open(opts?: OpenOptions): Promise<Opened>;
}

/** Declares a suite run against one workbench; `body` declares its tests and reads `wb` inside them. */
export function describeWorkbench(name: string, setup: WorkbenchSetup, body: (wb: Workbench) => void): void {
  const executable = chromiumPath();
  if (!executable) {
    describe(name, () => {
      if (requireSystemDeps) {
        it('needs chromium (TRAWL_REQUIRE_SYSTEM_DEPS=1)', () => {
          expect.fail(`chromium not found at ${process.env['TRAWL_CHROMIUM'] ?? '/usr/bin/chromium'}`);
        });
      } else {
        // Skip reason: no chromium on this machine. Skipped visibly (the name carries the reason); CI sets
        // TRAWL_REQUIRE_SYSTEM_DEPS=1 and takes the failing branch above.
        it.skip('chromium is not installed (apt-get install chromium)', () => {});
      }
    });
    return;
  }
  const wb = {} as Workbench;
  describe(name, () => {
    beforeAll(async () => {
      ensureWebBuild();
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `trawl-${setup.prefix}-`)));
      const home = path.join(tmp, 'home');
      const proj = path.join(home, 'proj');
      const write = (rel: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(proj, rel)), { recursive: true });
        fs.writeFileSync(path.join(proj, rel), text);
      };
      fs.mkdirSync(proj, { recursive: true });
      for (const [rel, text] of Object.entries(setup.files)) {
        if (rel.endsWith('/')) fs.mkdirSync(path.join(proj, rel), { recursive: true });
        else write(rel, text);
      }
      const more = (setup.moreProjects ?? []).map((n) => path.join(home, n));
      for (const d of more) fs.mkdirSync(d, { recursive: true });
      const args = [
        proj,
        ...more,
        '--port',
        '0',
        '--no-open',
        '--no-index',
        '--data-dir',
        path.join(tmp, 'data'),
      ];
      if (setup.agent) {
        const agent = path.join(tmp, 'agent.mjs');
        fs.writeFileSync(agent, setup.agent(tmp));
        args.push('--agent', `node ${agent}`);
      }
      Object.assign(wb, { tmp, home, proj, write });
      wb.server = await serve([...args, ...(setup.serveArgs ?? [])], { HOME: home });
      wb.browser = await launch(executable);
      wb.open = async (opts = {}) => {
        const context = await wb.browser.newContext({
          viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
          colorScheme: opts.scheme ?? 'light',
          ...(opts.bypassCSP ? { bypassCSP: true } : {}),
        });
        const page = await context.newPage();
        page.setDefaultTimeout(60_000);
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await opts.beforeLoad?.(page);
        await page.goto(wb.server.url);
        await page.getByLabel('Message', { exact: true }).waitFor();
        return { context, page, errors };
      };
    }, 180_000);

    afterAll(async () => {
      await wb.browser?.close();
      await wb.server?.stop();
      if (wb.tmp) fs.rmSync(wb.tmp, { recursive: true, force: true });
    });

    body(wb);
  });
}

/** The @ picker's option for the entry named exactly `name`. */
export const option = (page: Page, name: string) =>
  page
    .getByRole('option')
    .filter({ has: page.locator('.picker-name', { hasText: new RegExp(`^${name}$`) }) });

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** The offending elements (CSS selectors) with axe's summary of each. */
  nodes: { target: string; summary: string }[];
}

let axeSource: string | undefined;

/**
 * axe-core's serious and critical violations inside `selectors`, in the page as it is now. Its source is evaluated in
 * the page (not added as a script tag, which the page's CSP would refuse).
 */
export async function axeViolations(page: Page, selectors: string[]): Promise<AxeViolation[]> {
  axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (include) => {
    type Result = {
      violations: {
        id: string;
        impact: string;
        help: string;
        nodes: { target: string[]; failureSummary?: string }[];
      }[];
    };
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<Result> } }).axe;
    const r = await axe.run({ include: include.map((s) => [s]) }, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
      }));
  }, selectors);
}
