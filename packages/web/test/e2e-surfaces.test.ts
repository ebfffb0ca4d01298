// The workbench's search surfaces end to end in Debian's chromium against a real `trawl serve`: how rows read in
// the @ picker and the Files rail (name first, the directory cut from its start, matched characters marked, file
// kinds, previews that show the match, counts that do not claim a total), and how the picker behaves.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumPath,
  ensureWebBuild,
  launch,
  requireSystemDeps,
  type Served,
  serve,
} from './e2e/browser.js';

const CHROMIUM = chromiumPath();

if (!CHROMIUM) {
  describe('search surfaces end to end', () => {
    if (requireSystemDeps) {
      it('needs chromium (TRAWL_REQUIRE_SYSTEM_DEPS=1)', () => {
        expect.fail(`chromium not found at ${process.env['TRAWL_CHROMIUM'] ?? '/usr/bin/chromium'}`);
      });
    } else {
      // Skip reason: no chromium on this machine; CI sets TRAWL_REQUIRE_SYSTEM_DEPS=1 and fails instead.
      it.skip('chromium is not installed (apt-get install chromium)', () => {});
    }
  });
}

const DOCS = path.resolve(import.meta.dirname, '../../../docs');
const SCREENSHOTS = process.env['TRAWL_SCREENSHOTS'] === '1';

describe.runIf(CHROMIUM)('search surfaces end to end', () => {
  let tmp: string;
  let proj: string;
  let server: Served;
  let browser: Browser;

  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(proj, rel)), { recursive: true });
    fs.writeFileSync(path.join(proj, rel), text);
  };

  beforeAll(async () => {
    ensureWebBuild();
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-e2e-surfaces-')));
    const home = path.join(tmp, 'home');
    proj = path.join(home, 'proj');
    write('src/main.ts', 'export function main() {\n  return "needle";\n}\n');
    write('src/components/Button.tsx', 'export const Button = () => null;\n');
    write('README.md', '# proj\n');
    write('third_party/packages/zod-4.6.7/lib-esm/v4/mini/schemas.js', 'export const mini = 1;\n');
    write('third_party/packages/zod-4.6.7/lib-esm/v4/classic/schemas.js', 'export const classic = 1;\n');
    for (let i = 1; i <= 20; i++)
      write(`widgets/widget-${String(i).padStart(2, '0')}.ts`, `export const w${i} = 0;\n`);
    write('src/long.ts', `const padding = "${'x'.repeat(160)}"; // farneedle at the end\n`);
    server = await serve(
      [
        proj,
        '--port',
        '0',
        '--no-open',
        '--no-index',
        '--data-dir',
        path.join(tmp, 'data'),
        '--grep-deadline',
        '30',
      ],
      { HOME: home },
    );
    browser = await launch(CHROMIUM!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function open(
    width: number,
    scheme: 'light' | 'dark' = 'light',
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(server.url);
    await page.getByLabel('Message', { exact: true }).waitFor();
    return { context, page };
  }

  const option = (page: Page, name: string) =>
    page
      .getByRole('option')
      .filter({ has: page.locator('.picker-name', { hasText: new RegExp(`^${name}$`) }) });

  /** What each option shows: its name, its (dim) directory and the characters marked. */
  const optionRows = (page: Page) =>
    page.getByRole('option').evaluateAll((els) =>
      els.map((el) => ({
        name: el.querySelector('.row-name')?.textContent ?? '',
        dir: el.querySelector('.row-dir')?.textContent ?? '',
        dirShown: (el.querySelector('.row-dir') as HTMLElement | null)?.offsetWidth ?? 0,
        marked: [...el.querySelectorAll('.row-name mark')].map((m) => m.textContent).join(''),
        type: el.querySelector('svg')?.getAttribute('data-file-type') ?? '',
      })),
    );

  for (const width of [1280, 390]) {
    it(`picker rows read name first, the directory cut from its start, the match marked (${width} px)`, async () => {
      const { context, page } = await open(width);
      const box = page.getByLabel('Message', { exact: true });
      await box.click();
      await box.pressSequentially('@schem');
      await option(page, 'schemas.js').first().waitFor();
      const rows = await optionRows(page);
      const schemas = rows.filter((r) => r.name === 'schemas.js');
      expect(schemas).toHaveLength(2);
      expect(schemas.map((r) => r.dir.replace(/^….*\/v4\//, '…/v4/')).sort()).toEqual([
        '…/v4/classic/',
        '…/v4/mini/',
      ]);
      for (const r of schemas) {
        expect(r.marked).toBe('schem');
        expect(r.type).toBe('code');
        // the directory is on screen at every width (phones too): two `schemas.js` rows can be told apart
        expect(r.dirShown).toBeGreaterThan(0);
      }
      if (SCREENSHOTS) await page.screenshot({ path: path.join(DOCS, `picker-rows-${width}.png`) });
      await context.close();
    }, 120_000);
  }

  it('Files rail name hits read the same way and count honestly: "best 15 · more may match", then Show more', async () => {
    const { context, page } = await open(1280);
    await page.getByPlaceholder('Filter files…').fill('widget');
    const status = page.getByTestId('file-search-status');
    await status.getByText('best 15 · more may match').waitFor();
    const hit = page
      .locator('.hit-name', { has: page.locator('.row-name', { hasText: /^widget-\d+\.ts$/ }) })
      .first();
    expect(await hit.locator('.row-dir').textContent()).toBe('widgets/');
    expect(await hit.locator('.row-name mark').textContent()).toBe('widget');
    expect(await hit.locator('svg').getAttribute('data-file-type')).toBe('code');
    await page.getByRole('button', { name: 'Show more' }).click();
    await status.getByText('21 results').waitFor();
    expect(await page.locator('.hit-name').count()).toBe(21); // the 20 files and their folder
    await context.close();
  }, 120_000);

  it('a content hit far into its line shows the match, not the line start', async () => {
    const { context, page } = await open(1280);
    await page.getByRole('button', { name: 'Search file contents' }).click();
    await page.getByPlaceholder('Search in files…').fill('farneedle');
    await page
      .getByTestId('file-grep-status')
      .getByText(/1 result/)
      .waitFor();
    const hit = page.locator('.hit', { has: page.locator('.row-name', { hasText: 'long.ts' }) });
    expect(await hit.locator('.row-dir').textContent()).toBe('src/');
    const preview = await hit.locator('.hit-preview').boundingBox();
    const mark = await hit.locator('.hit-preview mark').boundingBox();
    expect(preview && mark).toBeTruthy();
    // the marked match lies inside the visible preview box
    expect(mark!.x + mark!.width).toBeLessThanOrEqual(preview!.x + preview!.width);
    if (SCREENSHOTS) await page.screenshot({ path: path.join(DOCS, 'rail-content-hit.png') });
    await context.close();
  }, 120_000);
});
