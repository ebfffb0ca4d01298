// The workbench's search surfaces end to end in Debian's chromium against a real `trawl serve`: how rows read in
// the @ picker and the Files rail (name first, the directory cut from its start, matched characters marked, file
// kinds, previews that show the match, counts that do not claim a total), and how the picker behaves.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { docx } from '../../core/test/fixtures/office-docs.js';
import { axeViolations, DOCS, describeWorkbench, option, SCREENSHOTS } from './e2e/fixture.js';

/**
 * A new conversation with one message sent and its reply ended: the composer is free for the next send. Returns the
 * message box.
 */
async function settledConversation(page: Page) {
  await page.locator('button.new-conv').click();
  const box = page.getByLabel('Message', { exact: true });
  await box.fill('hello');
  await box.press('Enter');
  await page.getByTestId('user-message').filter({ hasText: 'hello' }).waitFor();
  await page.waitForFunction(() => {
    const replies = document.querySelectorAll('[data-testid="assistant-message"]');
    const last = replies[replies.length - 1];
    return last && last.getAttribute('data-status') !== 'streaming';
  });
  await page.locator('.composer[aria-busy="false"]').waitFor();
  return box;
}

/**
 * Holds every message send of `page` until `release()`: `askedFor` resolves when the first one is asked, so what
 * the test does next happens strictly while a send is in flight.
 */
async function holdSends(page: Page): Promise<{ askedFor: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let asked!: () => void;
  const askedFor = new Promise<void>((r) => (asked = r));
  await page.route('**/api/conversations/*/messages', async (route) => {
    if (route.request().method() === 'POST') {
      asked();
      await released;
    }
    await route.continue();
  });
  return { askedFor, release };
}

const files: Record<string, string> = {
  'src/main.ts': 'export function main() {\n  return "needle";\n}\n',
  'src/components/Button.tsx': 'export const Button = () => null;\n',
  'README.md': '# proj\n',
  'third_party/packages/zod-4.6.7/lib-esm/v4/mini/schemas.js': 'export const mini = 1;\n',
  'third_party/packages/zod-4.6.7/lib-esm/v4/classic/schemas.js': 'export const classic = 1;\n',
  'src/Case.ts': 'export const NEEDLE_UPPER = "NEEDLE";\n',
  'src/long.ts': `const padding = "${'x'.repeat(160)}"; // farneedle at the end\n`,
  '.gitignore': 'dist/\n',
  '.github/workflows/ci.yml': 'on: push\n',
  'src/gitignore.ts': 'export const rules = [];\n',
  'docs/my notes@home.md': '# notes\n',
  // 100 000 short lines (under the viewer's 1 MiB), and a 1.8 MiB file whose only hit is on its last line
  'gen/hundred-k.txt': `${Array.from({ length: 100_000 }, (_, i) => `v${i + 1}`).join('\n')}\n`,
  // over content search's 2 MiB cap
  'gen/huge.log': `${Array.from({ length: 70_000 }, (_, i) => `log line ${i + 1} ${'-'.repeat(24)}`).join('\n')}\n`,
  'gen/far.ts': `${Array.from({ length: 60_000 }, (_, i) => `// filler line ${i + 1} ${'.'.repeat(12)}`).join('\n')}\nexport const zzfarhit = 1;\n`,
};
// Content hits grouped by file: 7 matching lines of 9, 2 lines, 1 line in a test folder.
files['src/group/many.ts'] = `${[1, 2, 3, 4, 5, 6, 7, 8, 9]
  .map((i) => (i === 3 || i === 6 ? `const other${i} = 0;` : `export const zzgroup${i} = ${i};`))
  .join('\n')}\n`;
files['src/group/other.py'] = 'zzgroup = 1\nprint(zzgroup)\n';
files['src/group/test/skip.ts'] = 'it("zzgroup");\n';
for (let i = 1; i <= 20; i++)
  files[`widgets/widget-${String(i).padStart(2, '0')}.ts`] = `export const w${i} = 0;\n`;

describeWorkbench(
  'search surfaces end to end',
  { prefix: 'e2e-surfaces', files, serveArgs: ['--grep-deadline', '30'] },
  (wb) => {
    const open = (
      width: number,
      scheme: 'light' | 'dark' = 'light',
      beforeLoad?: (page: Page) => Promise<void>,
    ) => wb.open({ width, scheme, ...(beforeLoad ? { beforeLoad } : {}) });

    /** What each option shows: its name, its (dim) directory and the characters marked. */
    const optionRows = (page: Page) =>
      page
        .getByRole('listbox', { name: 'Files and folders' })
        .getByRole('option')
        .evaluateAll((els) =>
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

    it('the Files rail takes a search only once the project is known (typed earlier, it was dropped)', async () => {
      const context = await wb.browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      await page.route('**/api/projects', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(wb.server.url);
      await page.getByLabel('Message', { exact: true }).waitFor();
      const field = page.getByPlaceholder('Filter files…');
      expect(await field.isDisabled()).toBe(true);
      release();
      await field.fill('widget');
      await page.getByTestId('file-search-status').getByText('best 15 · more may match').waitFor();
      await context.close();
    }, 120_000);

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
        .getByText(/ in 1 file$/)
        .waitFor();
      const hit = page.locator('.hit-group', { has: page.locator('.row-name', { hasText: 'long.ts' }) });
      expect(await hit.locator('.row-dir').textContent()).toBe('src/');
      const preview = await hit.locator('.hit-preview').boundingBox();
      const mark = await hit.locator('.hit-preview mark').boundingBox();
      expect(preview && mark).toBeTruthy();
      // the marked match lies inside the visible preview box
      expect(mark!.x + mark!.width).toBeLessThanOrEqual(preview!.x + preview!.width);
      if (SCREENSHOTS) await page.screenshot({ path: path.join(DOCS, 'rail-content-hit.png') });
      await context.close();
    }, 120_000);
    it('the best match sits nearest the caret and is announced first; Up moves to the second, drawn above it', async () => {
      const { context, page } = await open(1280);
      const box = page.getByLabel('Message', { exact: true });
      await box.click();
      await box.pressSequentially('@widget');
      await page.locator('[role="option"][aria-posinset="2"]').waitFor();
      const best = page.locator('[role="option"][aria-posinset="1"]');
      expect(await best.getAttribute('aria-selected')).toBe('true');
      const setsize = Number(await best.getAttribute('aria-setsize'));
      expect(setsize).toBeGreaterThan(2);
      const area = (await box.boundingBox())!;
      const bestBox = (await best.boundingBox())!;
      const secondBox = (await page.locator('[role="option"][aria-posinset="2"]').boundingBox())!;
      expect(bestBox.y).toBeGreaterThan(secondBox.y); // nearest the composer, below the rest
      const lowest = await page
        .locator('[role="option"][aria-posinset]')
        .evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().bottom)));
      expect(bestBox.y + bestBox.height).toBe(lowest); // no row is drawn between it and the composer
      expect(area.y).toBeGreaterThan(lowest);
      await box.press('ArrowUp');
      const active = await box.getAttribute('aria-activedescendant');
      expect(await page.locator(`[id="${active}"]`).getAttribute('aria-posinset')).toBe('2');
      // the textarea is the combobox that owns the list
      expect(await box.getAttribute('role')).toBe('combobox');
      expect(await box.getAttribute('aria-expanded')).toBe('true');
      await context.close();
    }, 120_000);

    it('an Enter pressed before the answer arrives picks the first row of that answer', async () => {
      const { context, page } = await open(1280);
      // Hold the name search until the Enter has been pressed: the answer arrives strictly after the key.
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let asked!: () => void;
      const askedFor = new Promise<void>((r) => (asked = r));
      await page.route('**/api/file-search?*', async (route) => {
        if (new URL(route.request().url()).searchParams.get('q') === 'Butto') {
          asked();
          await released;
        }
        await route.continue();
      });
      const box = page.getByLabel('Message', { exact: true });
      await box.click();
      await box.pressSequentially('see @Butto');
      await box.press('Enter');
      await askedFor;
      release();
      await page.waitForFunction(
        () =>
          (document.querySelector('textarea') as HTMLTextAreaElement).value ===
          'see @src/components/Button.tsx ',
      );
      await page.getByTestId('preview-strip').locator('[data-file-chip]').waitFor();
      await context.close();
    }, 120_000);

    it('Enter on no match sends nothing: the unresolved @query stays in the box', async () => {
      const { context, page } = await open(1280);
      const bodies: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && /\/messages$/.test(r.url())) bodies.push(r.postData() ?? '');
      });
      const box = page.getByLabel('Message', { exact: true });
      await box.click();
      await box.pressSequentially('hello @zzzqqq');
      await page
        .getByRole('status')
        .getByText(/No matching files/)
        .waitFor();
      await box.press('Enter');
      await box.pressSequentially(' more');
      const sent = page.waitForRequest((r) => r.method() === 'POST' && /\/messages$/.test(r.url()));
      await box.press('Enter');
      await sent;
      expect(bodies).toHaveLength(1);
      expect(JSON.parse(bodies[0]!).text).toBe('hello @zzzqqq more');
      await context.close();
    }, 120_000);

    it('./ completion attaches the file it completes, and a bare @ then offers it as recent', async () => {
      const { context, page } = await open(1280);
      const box = page.getByLabel('Message', { exact: true });
      await box.click();
      await box.pressSequentially('./src/ma');
      await option(page, 'main.ts').waitFor();
      await box.press('Enter');
      await page.getByTestId('preview-strip').locator('[data-file-chip]').waitFor();
      expect(await box.inputValue()).toBe('@src/main.ts ');
      await box.fill('');
      await box.pressSequentially('@');
      await page
        .getByRole('status')
        .getByText(/Recent files/)
        .waitFor();
      const recent = await optionRows(page);
      expect(recent.map((r) => `${r.dir}${r.name}`)).toEqual(['src/main.ts']);
      await box.press('Enter');
      expect(await box.inputValue()).toBe('@src/main.ts ');
      await context.close();
    }, 120_000);

    it('Ctrl+P opens quick open over the project; Enter opens the file in the viewer', async () => {
      const { context, page } = await open(1280);
      await page.keyboard.press('Control+P');
      const field = page.getByRole('combobox', { name: 'Go to file' });
      await field.waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        'Go to file',
      );
      await field.pressSequentially('Butt');
      await page
        .getByRole('dialog', { name: 'Go to file' })
        .locator('.row-name', { hasText: 'Button.tsx' })
        .waitFor();
      await page
        .getByRole('dialog')
        .getByRole('status')
        .getByText(/1 file/)
        .waitFor();
      await field.press('Enter');
      await page.getByRole('region', { name: 'File src/components/Button.tsx' }).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      if (SCREENSHOTS) {
        await page.keyboard.press('Control+P');
        await page.getByRole('combobox', { name: 'Go to file' }).pressSequentially('schem');
        await page
          .getByRole('dialog')
          .getByRole('status')
          .getByText(/2 files/)
          .waitFor();
        await page.screenshot({ path: path.join(DOCS, 'quick-open.png') });
      }
      await context.close();
    }, 120_000);
    it('a Ctrl+P pressed before the project list has arrived opens quick open when it arrives', async () => {
      // The composer is up once the conversations are known; the project list may answer later (on a fast machine
      // it often does). Held here so the press lands strictly before it.
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const { context, page } = await open(1280, 'light', async (p) => {
        await p.route('**/api/projects', async (route) => {
          await released;
          await route.continue();
        });
      });
      await page.keyboard.press('Control+P');
      release();
      const field = page.getByRole('combobox', { name: 'Go to file' });
      await field.waitFor();
      await field.pressSequentially('Butt');
      await page
        .getByRole('dialog', { name: 'Go to file' })
        .locator('.row-name', { hasText: 'Button.tsx' })
        .waitFor();
      await context.close();
    }, 120_000);

    it('quick open opened while a message is being sent keeps focus when the send completes', async () => {
      const { context, page } = await open(1280);
      const box = await settledConversation(page);
      // Hold the next send until quick open has focus: the send completes strictly after.
      const { askedFor, release } = await holdSends(page);
      await box.fill('and again');
      await box.press('Enter');
      await askedFor;
      await page.keyboard.press('Control+P');
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Go to file');
      release();
      // The box empties when the send has completed.
      await page.waitForFunction(
        () => (document.querySelector('textarea') as HTMLTextAreaElement).value === '',
      );
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        'Go to file',
      );
      await page.getByRole('combobox', { name: 'Go to file' }).pressSequentially('Butt');
      await page
        .getByRole('dialog', { name: 'Go to file' })
        .locator('.row-name', { hasText: 'Button.tsx' })
        .waitFor();
      await context.close();
    }, 120_000);

    it('what is typed while a message is being sent stays in the box when the send completes', async () => {
      const { context, page } = await open(1280);
      const box = await settledConversation(page);
      const { askedFor, release } = await holdSends(page);
      await box.fill('first thought');
      await box.press('Enter');
      await askedFor;
      await box.fill('second thought');
      const answered = page.waitForResponse(
        (r) => r.request().method() === 'POST' && /\/messages$/.test(r.url()),
      );
      release();
      await answered;
      await page.getByTestId('user-message').filter({ hasText: 'first thought' }).waitFor();
      // The composer is busy while a send is in flight; its completion has run once it is not.
      await page.locator('.composer[aria-busy="false"]').waitFor();
      expect(await box.inputValue()).toBe('second thought');
      await context.close();
    }, 120_000);

    it('content search has case, whole-word and regex switches that change what matches', async () => {
      const { context, page } = await open(1280);
      const bodies: Record<string, unknown>[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/file-grep'))
          bodies.push(JSON.parse(r.postData() ?? '{}'));
      });
      await page.getByRole('button', { name: 'Search file contents' }).click();
      await page.getByPlaceholder('Search in files…').fill('needle');
      const status = page.getByTestId('file-grep-status');
      await status.getByText(/ in 3 files$/).waitFor();
      const matchCase = page.getByRole('button', { name: 'Match case' });
      await matchCase.click();
      expect(await matchCase.getAttribute('aria-pressed')).toBe('true');
      await status.getByText(/ in 2 files$/).waitFor(); // NEEDLE no longer matches
      await page.getByRole('button', { name: 'Match whole word' }).click();
      await status.getByText(/ in 1 file$/).waitFor(); // nor does farneedle
      expect(await page.locator('.hit-file .row-name').allTextContents()).toEqual(['main.ts']);
      // Each preview marks what the switches matched (the server's ranges), whatever the switches.
      const marks = () =>
        page
          .locator('.hit-group')
          .evaluateAll((els) =>
            els.map(
              (el) =>
                `${el.querySelector('.row-name')?.textContent}: ${[...el.querySelectorAll('.hit-preview mark')].map((m) => m.textContent).join(' ')}`,
            ),
          );
      expect(await marks()).toEqual(['main.ts: needle']);
      await page.getByRole('button', { name: 'Use regular expression' }).click();
      await page.getByPlaceholder('Search in files…').fill('ne+dle|NEEDLE_[A-Z]+');
      await status.getByText(/ in 2 files$/).waitFor();
      expect(bodies.at(-1)).toMatchObject({ case_sensitive: true, whole_word: true, regex: true });
      expect((await marks()).sort()).toEqual(['Case.ts: NEEDLE_UPPER', 'main.ts: needle']);
      if (SCREENSHOTS) await page.screenshot({ path: path.join(DOCS, 'rail-content-switches.png') });
      await context.close();
    }, 120_000);

    it('dot files are offered by the picker: below other files, first when the query starts with a dot', async () => {
      const { context, page } = await open(1280);
      const box = page.getByLabel('Message', { exact: true });
      await box.click();
      await box.pressSequentially('@gitignore');
      await option(page, '.gitignore').waitFor();
      expect((await optionRows(page)).map((r) => r.name)).toEqual(['gitignore.ts', '.gitignore']);
      await box.fill('');
      await box.pressSequentially('@.gitig');
      await page
        .locator('[role="option"][aria-posinset="1"] .row-name', { hasText: /^\.gitignore$/ })
        .waitFor();
      await box.press('Enter');
      // A pick held for its query's answer lands later: its chip is the event to wait for.
      await page.getByTestId('preview-strip').locator('[data-file-chip]').waitFor();
      expect(await box.inputValue()).toBe('@.gitignore ');
      // a file inside a dot folder is offered too, by its own name
      await box.fill('');
      await box.pressSequentially('@ci.yml');
      await option(page, 'ci.yml').waitFor();
      expect((await optionRows(page)).map((r) => `${r.dir}${r.name}`)).toContain('.github/workflows/ci.yml');
      await box.press('Enter');
      await page.getByTestId('preview-strip').locator('[data-file-chip]').waitFor();
      expect(await box.inputValue()).toBe('@.github/workflows/ci.yml ');
      await context.close();
    }, 120_000);

    it('a name with a space and an @ attaches as a quoted token, and goes out as the seed marker', async () => {
      const { context, page } = await open(1280);
      const box = page.getByLabel('Message', { exact: true });
      await box.click();
      await box.pressSequentially('read @notes');
      await option(page, 'my notes@home.md').waitFor();
      await box.press('Enter');
      await page.getByTestId('preview-strip').locator('[data-file-chip]').waitFor();
      expect(await box.inputValue()).toBe('read @"docs/my notes@home.md" ');
      const sent = page.waitForRequest((r) => r.method() === 'POST' && /\/messages$/.test(r.url()));
      await box.press('Enter');
      const body = JSON.parse((await sent).postData() ?? '{}');
      const abs = path.join(wb.proj, 'docs/my notes@home.md');
      expect(body.wire).toBe(`read [attached_file 1] ${abs} `);
      expect(body.meta.files).toEqual([{ path: abs, name: 'my notes@home.md' }]);
      // the bubble reads the token back as one chip
      await page.locator('.message-text .chip', { hasText: '@"docs/my notes@home.md"' }).waitFor();
      await context.close();
    }, 120_000);

    it('a Files-rail row dragged onto the composer, or copied and pasted into it, attaches', async () => {
      const { context, page } = await open(1280);
      const box = page.getByLabel('Message', { exact: true });
      await page.getByRole('treeitem', { name: /README\.md/ }).dragTo(box);
      await page.waitForFunction(
        () => (document.querySelector('textarea') as HTMLTextAreaElement).value === '@README.md ',
      );
      await page.getByTestId('preview-strip').locator('[data-file-chip]').waitFor();
      // copy a folder row (the rail's copy handler fills the clipboard data), paste it into the composer
      const pasted = await page.evaluate(() => {
        const row = [...document.querySelectorAll('[role="treeitem"]')].find((e) => e.textContent === 'src');
        const data = new DataTransfer();
        row!.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true }));
        const area = document.querySelector('textarea') as HTMLTextAreaElement;
        area.focus();
        area.setSelectionRange(area.value.length, area.value.length);
        area.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
        return data.getData('text/plain');
      });
      expect(pasted).toBe('@src/');
      await page.waitForFunction(
        () => (document.querySelector('textarea') as HTMLTextAreaElement).value === '@README.md @src/ ',
      );
      await page.getByTestId('preview-strip').locator('[data-dir-chip]').waitFor();
      await context.close();
    }, 120_000);

    it('the Files tree is an ARIA tree: one Tab stop, arrow keys move, open and close; no control inside it', async () => {
      const { context, page } = await open(1280);
      // a conversation to add to: its rows get their "Add to message" buttons
      const box = page.getByLabel('Message', { exact: true });
      await box.fill('hello');
      await box.press('Enter');
      await page.getByTestId('user-message').first().waitFor();
      const tree = page.getByRole('tree', { name: 'Project files' });
      await tree.getByRole('treeitem', { name: /^src$/ }).waitFor();
      expect(await page.getByRole('button', { name: 'Add src/ to message' }).count()).toBe(1);
      const src = tree.getByRole('treeitem', { name: /^src$/ });
      await src.waitFor();
      expect(await tree.locator('button').count()).toBe(0); // the "+" buttons sit beside the tree
      expect(await tree.locator('[tabindex="0"]').count()).toBe(1);
      const focused = () =>
        page.evaluate(() => ({
          name: document.activeElement?.textContent ?? '',
          expanded: document.activeElement?.getAttribute('aria-expanded') ?? null,
          level: document.activeElement?.getAttribute('aria-level') ?? null,
        }));
      await src.focus();
      await page.keyboard.press('ArrowRight'); // opens src
      await tree.getByRole('treeitem', { name: /^main\.ts$/ }).waitFor();
      expect(await focused()).toEqual({ name: 'src', expanded: 'true', level: '1' });
      await page.keyboard.press('ArrowRight'); // into its first child
      expect((await focused()).level).toBe('2');
      await page.keyboard.press('ArrowLeft'); // back to the parent
      expect(await focused()).toEqual({ name: 'src', expanded: 'true', level: '1' });
      await page.keyboard.press('ArrowLeft'); // closes it
      expect((await focused()).expanded).toBe('false');
      const top = await tree.locator('[role="treeitem"][aria-level="1"]').allTextContents();
      await page.keyboard.press('ArrowDown');
      expect((await focused()).name).toBe(top[top.indexOf('src') + 1]);
      await page.keyboard.press('End');
      expect((await focused()).name).toBe(top.at(-1));
      await page.keyboard.press('Home');
      expect((await focused()).name).toBe(top[0]);
      // the next Tab stop after the tree is the active row's "Add to message"
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(
        new RegExp(`^Add ${top[0]!.replace('.', '\\.')}/? to message$`),
      );
      expect(await tree.locator('[tabindex="0"]').count()).toBe(1);
      await context.close();
    }, 120_000);

    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        it(`axe finds no serious or critical violation in any state (${scheme}, ${width} px)`, async () => {
          const { context, page } = await open(width, scheme);
          const found: Record<string, string[]> = {};
          const check = async (state: string) => {
            const v = await axeViolations(page, ['body']);
            if (v.length > 0)
              found[state] = v.map((x) => `${x.id} (${x.impact}): ${JSON.stringify(x.nodes[0])}`);
          };
          await check('start');
          const box = page.getByLabel('Message', { exact: true });
          await box.fill('hello'); // a conversation: the rail's rows get their "Add to message" buttons
          await box.press('Enter');
          await page.getByTestId('user-message').first().waitFor();
          await check('a conversation');
          await box.click();
          await box.pressSequentially('@schem');
          await option(page, 'schemas.js').first().waitFor();
          await check('picker open');
          await box.press('Escape');
          await box.fill('');
          const files = page.getByRole('button', { name: 'Files', exact: true });
          if (width < 900) await files.click();
          const tree = page.getByRole('tree', { name: 'Project files' });
          await tree.getByRole('treeitem', { name: /^src$/ }).click();
          await tree.getByRole('treeitem', { name: /^main\.ts$/ }).waitFor();
          await check('tree open');
          await page.getByPlaceholder('Filter files…').fill('widget');
          await page.getByTestId('file-search-status').getByText('best 15 · more may match').waitFor();
          await check('name hits');
          await page.getByRole('button', { name: 'Search file contents' }).click();
          await page.getByPlaceholder('Search in files…').fill('needle');
          await page
            .getByTestId('file-grep-status')
            .getByText(/ in 3 files$/)
            .waitFor();
          await page.getByRole('button', { name: 'Match case' }).click();
          await page
            .getByTestId('file-grep-status')
            .getByText(/ in 2 files$/)
            .waitFor();
          await check('content hits, a switch on');
          await page.getByPlaceholder('Search in files…').fill('zzgroup');
          await page.getByRole('button', { name: 'Show 2 more lines' }).waitFor();
          await page
            .locator('.hit-file', { has: page.locator('.row-name', { hasText: 'other.py' }) })
            .click();
          await page.getByRole('button', { name: 'Filters' }).click();
          await page.getByRole('textbox', { name: 'Files to exclude' }).fill('**/test/**');
          await page.getByTestId('file-grep-status').getByText('9 matching lines in 2 files').waitFor();
          await check('content hits grouped by file, one collapsed, filters open');
          await page
            .locator('.hit-group', { has: page.locator('.row-name', { hasText: 'many.ts' }) })
            .locator('.hit-line')
            .first()
            .click();
          await page.getByRole('region', { name: 'File src/group/many.ts' }).waitFor();
          await check('viewer');
          await page.keyboard.press('Control+P');
          await page.getByRole('combobox', { name: 'Go to file' }).pressSequentially('schem');
          await page
            .getByRole('dialog')
            .getByRole('status')
            .getByText(/2 files/)
            .waitFor();
          await check('quick open');
          expect(found).toEqual({});
          await context.close();
        }, 180_000);
      }
    }

    it('the viewer opens beside the thread, keeps only the lines in view in the page, and highlights', async () => {
      const { context, page } = await open(1280);
      await page.keyboard.press('Control+P');
      await page.getByRole('combobox', { name: 'Go to file' }).pressSequentially('hundred-k');
      await page.getByRole('dialog').locator('.row-name', { hasText: 'hundred-k.txt' }).waitFor();
      await page.getByRole('combobox', { name: 'Go to file' }).press('Enter');
      const viewer = page.getByRole('region', { name: 'File gen/hundred-k.txt' });
      const code = viewer.getByTestId('file-viewer');
      await code.locator('[data-line="1"]').waitFor();
      expect(await code.locator('.code-line').count()).toBeLessThan(300); // not 100 000
      // beside the thread: the composer is on screen at the same time, left of the viewer
      const box = (await page.getByLabel('Message', { exact: true }).boundingBox())!;
      const pane = (await viewer.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(pane.x + 1);
      await code.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await code.locator('[data-line="100000"]', { hasText: 'v100000' }).waitFor();
      expect(await code.locator('.code-line').count()).toBeLessThan(300);
      await viewer.getByRole('button', { name: 'Close file' }).click();
      // a TypeScript file is highlighted
      await page.keyboard.press('Control+P');
      await page.getByRole('combobox', { name: 'Go to file' }).pressSequentially('main.ts');
      await page
        .getByRole('dialog')
        .locator('.row-name', { hasText: /^main\.ts$/ })
        .waitFor();
      await page.getByRole('combobox', { name: 'Go to file' }).press('Enter');
      await page.getByRole('region', { name: 'File src/main.ts' }).locator('.hljs-keyword').first().waitFor();
      if (SCREENSHOTS) await page.screenshot({ path: path.join(DOCS, 'viewer-split.png') });
      await context.close();
    }, 120_000);

    it('a content hit past the first MiB opens at its line, marked, from the window around it', async () => {
      const { context, page } = await open(1280);
      await page.getByRole('button', { name: 'Search file contents' }).click();
      await page.getByPlaceholder('Search in files…').fill('zzfarhit');
      const hit = page
        .locator('.hit-group', { has: page.locator('.row-name', { hasText: 'far.ts' }) })
        .locator('.hit-line');
      await hit.waitFor();
      await hit.click();
      const viewer = page.getByRole('region', { name: 'File gen/far.ts' });
      const marked = viewer.locator('.code-line[aria-current="true"]');
      await marked.waitFor();
      expect(await marked.getAttribute('data-line')).toBe('60001');
      expect(await marked.textContent()).toContain('export const zzfarhit = 1;');
      expect(await viewer.getByTestId('viewer-window').textContent()).toMatch(/^Lines \d+–60001 of a /);
      // the marked line is in view
      const c = (await viewer.getByTestId('file-viewer').boundingBox())!;
      const m = (await marked.boundingBox())!;
      expect(m.y).toBeGreaterThanOrEqual(c.y);
      expect(m.y + m.height).toBeLessThanOrEqual(c.y + c.height + 1);
      // a window past the colouring limit says it is shown plain; the file is under the search cap, so no word of it
      expect(await viewer.getByTestId('viewer-plain').textContent()).toMatch(
        /colours up to 200,000 characters/,
      );
      expect(await viewer.getByTestId('viewer-not-searched').count()).toBe(0);
      await context.close();
    }, 120_000);

    it('the viewer says when content search skips the file for its size', async () => {
      const { context, page } = await open(1280);
      const quickOpen = async (typed: string, name: string | RegExp) => {
        await page.keyboard.press('Control+P');
        await page.getByRole('combobox', { name: 'Go to file' }).pressSequentially(typed);
        await page.getByRole('dialog').locator('.row-name', { hasText: name }).waitFor();
        await page.getByRole('combobox', { name: 'Go to file' }).press('Enter');
      };
      await quickOpen('huge.log', 'huge.log');
      const viewer = page.getByRole('region', { name: 'File gen/huge.log' });
      await viewer.getByTestId('file-viewer').locator('[data-line="1"]').waitFor();
      expect(await viewer.getByTestId('viewer-not-searched').textContent()).toMatch(
        /^Content search skips text files over 2 MiB/,
      );
      // a .log has no grammar: nothing to say about colours
      expect(await viewer.getByTestId('viewer-plain').count()).toBe(0);
      await viewer.getByRole('button', { name: 'Close file' }).click();
      await quickOpen('main.ts', /^main\.ts$/);
      const small = page.getByRole('region', { name: 'File src/main.ts' });
      await small.locator('.hljs-keyword').first().waitFor();
      expect(await small.locator('[data-testid^="viewer-"]').count()).toBe(0);
      await context.close();
    }, 120_000);

    it('a document hit opens at the text extracted from it, the matching passage marked', async () => {
      fs.mkdirSync(path.join(wb.proj, 'reports'), { recursive: true });
      fs.writeFileSync(
        path.join(wb.proj, 'reports/Plan.docx'),
        docx(['Quarterly plan.', 'Nothing here.', 'The zzdocword budget moves to May.', 'The end.']),
      );
      const { context, page } = await open(1280);
      await page.getByRole('button', { name: 'Search file contents' }).click();
      await page.getByPlaceholder('Search in files…').fill('zzdocword');
      const hit = page
        .locator('.hit-group', { has: page.locator('.row-name', { hasText: 'Plan.docx' }) })
        .locator('.hit-line');
      await hit.click();
      const viewer = page.getByRole('region', { name: 'File reports/Plan.docx' });
      const marked = viewer.locator('.code-line[aria-current="true"]');
      await marked.waitFor();
      expect(await marked.getAttribute('data-line')).toBe('3');
      expect(await marked.textContent()).toContain('The zzdocword budget moves to May.');
      expect(await viewer.getByTestId('viewer-document').textContent()).toMatch(/text content search reads/);
      expect(await viewer.getByText('A binary file').count()).toBe(0);
      await context.close();
    }, 120_000);

    it('on a phone an open file is a pane of its own: the File tab, beside Thread; closing it goes back', async () => {
      const { context, page } = await open(390);
      const tab = (name: string) =>
        page.getByRole('navigation', { name: 'Panes' }).getByRole('button', { name, exact: true });
      expect(await tab('File').count()).toBe(0);
      await tab('Files').click();
      const tree = page.getByRole('tree', { name: 'Project files' });
      await tree.getByRole('treeitem', { name: /^src$/ }).click();
      await tree.getByRole('treeitem', { name: /^main\.ts$/ }).click();
      const viewer = page.getByRole('region', { name: 'File src/main.ts' });
      await viewer.getByTestId('file-viewer').locator('[data-line="1"]').waitFor();
      expect(await tab('File').getAttribute('aria-pressed')).toBe('true');
      // Thread: the thread and the composer, the file kept open behind its tab
      await tab('Thread').click();
      await viewer.waitFor({ state: 'hidden' });
      const box = page.getByLabel('Message', { exact: true });
      expect(await box.isVisible()).toBe(true);
      await box.fill('typed beside the file');
      await tab('File').click();
      await viewer.getByTestId('file-viewer').locator('[data-line="1"]').waitFor();
      await viewer.getByRole('button', { name: 'Close file' }).click();
      await viewer.waitFor({ state: 'detached' });
      expect(await tab('File').count()).toBe(0);
      // back in the Files pane it was opened from, on the row it was opened with
      expect(await tab('Files').getAttribute('aria-pressed')).toBe('true');
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'treeitem');
      expect(await box.inputValue()).toBe('typed beside the file');
      await context.close();
    }, 120_000);

    for (const width of [1280, 390]) {
      it(`content hits are grouped by file: its count, its first lines under it, more on request, globs narrow them (${width} px)`, async () => {
        const { context, page } = await open(width);
        const bodies: Record<string, unknown>[] = [];
        page.on('request', (r) => {
          if (r.method() === 'POST' && r.url().endsWith('/api/file-grep'))
            bodies.push(JSON.parse(r.postData() ?? '{}'));
        });
        if (width < 900) await page.getByRole('button', { name: 'Files', exact: true }).click();
        await page.getByRole('button', { name: 'Search file contents' }).click();
        await page.getByPlaceholder('Search in files…').fill('zzgroup');
        const status = page.getByTestId('file-grep-status');
        await status.getByText('10 matching lines in 3 files').waitFor();
        const groups = () =>
          page.locator('.hit-group').evaluateAll((els) =>
            els.map((el) => ({
              name: el.querySelector('.hit-file .row-name')?.textContent ?? '',
              dirShown: (el.querySelector('.hit-file .row-dir') as HTMLElement | null)?.offsetWidth ?? 0,
              count: el.querySelector('[data-testid="hit-count"]')?.textContent ?? '',
              lines: [...el.querySelectorAll('.hit-line .hit-tag')].map((t) => t.textContent),
              more: el.querySelector('.hit-more')?.textContent ?? '',
            })),
          );
        expect(await groups()).toEqual([
          {
            name: 'many.ts',
            dirShown: expect.any(Number),
            count: '7 matching lines',
            lines: ['line 1', 'line 2', 'line 4', 'line 5', 'line 7'],
            more: 'Show 2 more lines',
          },
          {
            name: 'other.py',
            dirShown: expect.any(Number),
            count: '2 matching lines',
            lines: ['line 1', 'line 2'],
            more: '',
          },
          {
            name: 'skip.ts',
            dirShown: expect.any(Number),
            count: '1 matching line',
            lines: ['line 1'],
            more: '',
          },
        ]);
        // Rows tell their files apart by the folder, shown at every width.
        for (const g of await groups()) expect(g.dirShown).toBeGreaterThan(0);
        expect(bodies.at(-1)).toMatchObject({ q: 'zzgroup', per_file: 5 });
        const file = page.locator('.hit-file', { has: page.locator('.row-name', { hasText: 'many.ts' }) });
        expect(await file.getAttribute('aria-expanded')).toBe('true');
        await page.getByRole('button', { name: 'Show 2 more lines' }).click();
        await page.locator('.hit-group').first().locator('.hit-line').nth(6).waitFor();
        expect(bodies.at(-1)).toMatchObject({ include: ['/src/group/many.ts'], per_file: 20 });
        expect((await groups())[0]!.lines).toEqual([
          'line 1',
          'line 2',
          'line 4',
          'line 5',
          'line 7',
          'line 8',
          'line 9',
        ]);
        if (SCREENSHOTS)
          await page.screenshot({ path: path.join(DOCS, `rail-content-grouped-${width}.png`) });
        await page.getByRole('button', { name: 'Filters' }).click();
        await page.getByRole('textbox', { name: 'Files to include' }).fill('*.ts');
        await status.getByText('8 matching lines in 2 files').waitFor();
        await page.getByRole('textbox', { name: 'Files to exclude' }).fill('**/test/**');
        await status.getByText('7 matching lines in 1 file').waitFor();
        expect(bodies.at(-1)).toMatchObject({ include: ['*.ts'], exclude: ['**/test/**'] });
        if (SCREENSHOTS)
          await page.screenshot({ path: path.join(DOCS, `rail-content-filters-${width}.png`) });
        // Two files of one name deep in the tree read apart: the folder is cut from its start, never its end.
        await page.getByRole('textbox', { name: 'Files to include' }).fill('**/schemas.js');
        await page.getByRole('textbox', { name: 'Files to exclude' }).fill('');
        await page.getByPlaceholder('Search in files…').fill('export const');
        await status.getByText('2 matching lines in 2 files').waitFor();
        const deep = await groups();
        expect(deep.map((g) => g.name)).toEqual(['schemas.js', 'schemas.js']);
        for (const g of deep) expect(g.dirShown).toBeGreaterThan(0);
        const dirs = await page.locator('.hit-file .row-dir').allTextContents();
        expect(dirs.map((d) => d.replace(/^….*\/v4\//, '…/v4/')).sort()).toEqual([
          '…/v4/classic/',
          '…/v4/mini/',
        ]);
        await page.getByRole('textbox', { name: 'Files to include' }).fill('src/[z');
        expect(await page.getByTestId('file-grep-error').textContent()).toMatch(
          /Couldn't search file contents: .*glob/i,
        );
        await context.close();
      }, 120_000);
    }

    it('content hits are walked with the arrow keys from the search field, files folded with Left/Right, and Enter opens a line', async () => {
      const { context, page } = await open(1280);
      await page.getByRole('button', { name: 'Search file contents' }).click();
      const field = page.getByPlaceholder('Search in files…');
      await field.fill('needle');
      await page
        .getByTestId('file-grep-status')
        .getByText(/ in 3 files$/)
        .waitFor();
      const files = await page
        .locator('.hits .hit-file')
        .evaluateAll((els) => els.map((e) => e.getAttribute('title')));
      // The focused row: a file's title, or `line N` for one of its lines.
      const focused = () =>
        page.evaluate(() => {
          const a = document.activeElement;
          if (a?.classList.contains('hit-line')) return `line ${a.querySelector('.hit-tag')?.textContent}`;
          return a?.getAttribute('title') ?? a?.tagName;
        });
      await field.press('ArrowDown');
      expect(await focused()).toBe(files[0]);
      await page.keyboard.press('ArrowDown');
      expect(await focused()).toMatch(/^line line \d+$/);
      await page.keyboard.press('ArrowLeft');
      expect(await focused()).toBe(files[0]);
      await page.keyboard.press('ArrowLeft');
      expect(await page.locator('.hit-file').first().getAttribute('aria-expanded')).toBe('false');
      await page.keyboard.press('ArrowDown');
      expect(await focused()).toBe(files[1]);
      await page.keyboard.press('End');
      expect(await focused()).toMatch(/^line /);
      await page.keyboard.press('Home');
      expect(await focused()).toBe(files[0]);
      await page.keyboard.press('ArrowUp');
      expect(await focused()).toBe('INPUT');
      await field.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      expect(await page.locator('.hit-file').first().getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page
        .getByRole('region', { name: `File ${files[0]}` })
        .locator('.code-line[aria-current="true"]')
        .waitFor();
      await context.close();
    }, 120_000);

    it('"Add lines N–M" from a selection in the viewer attaches the range, and the wire carries path:N-M', async () => {
      const { context, page } = await open(1280);
      const box = page.getByLabel('Message', { exact: true });
      await box.fill('hello'); // a conversation to add to
      await box.press('Enter');
      await page.getByTestId('user-message').first().waitFor();
      await page.keyboard.press('Control+P');
      await page.getByRole('combobox', { name: 'Go to file' }).pressSequentially('main.ts');
      await page
        .getByRole('dialog')
        .locator('.row-name', { hasText: /^main\.ts$/ })
        .waitFor();
      await page.getByRole('combobox', { name: 'Go to file' }).press('Enter');
      const viewer = page.getByRole('region', { name: 'File src/main.ts' });
      await viewer.locator('[data-line="3"]').waitFor();
      await page.evaluate(() => {
        const at = (n: number) => document.querySelector(`.code-line[data-line="${n}"] .lt`)!;
        const r = document.createRange();
        r.setStart(at(1).firstChild ?? at(1), 0);
        r.setEnd(at(2), at(2).childNodes.length);
        document.getSelection()!.removeAllRanges();
        document.getSelection()!.addRange(r);
      });
      await viewer.getByRole('button', { name: 'Add lines 1–2' }).click();
      await page.waitForFunction(
        () => (document.querySelector('textarea') as HTMLTextAreaElement).value === '@src/main.ts:1-2 ',
      );
      await page.getByTestId('preview-strip').locator('[data-file-chip]').waitFor();
      const sent = page.waitForRequest((r) => r.method() === 'POST' && /\/messages$/.test(r.url()));
      await box.press('Enter');
      const body = JSON.parse((await sent).postData() ?? '{}');
      expect(body.wire).toBe(`[attached_file 1] ${path.join(wb.proj, 'src/main.ts')}:1-2 `);
      await context.close();
    }, 120_000);
  },
);
