// End to end in a real browser: Debian's chromium against a real `trawl serve --agent` on a generated project.
// What a person does first: attach a file and a folder with @, complete ./src/, see "outside the project" for
// ../../, send, watch the agent's reply stream, reload and find the conversation and the draft, search contents in
// the Files rail and open a hit at its line. With TRAWL_SCREENSHOTS=1 it also writes docs/workbench-{light,dark}.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { DOCS, describeWorkbench, option, SCREENSHOTS } from './e2e/fixture.js';

// The agent: records what it was given, streams one line, waits for the test's go-ahead, then finishes. Waiting on
// a file the test writes after it SAW the first line proves the reply streams, with no timing.
const agent = (tmp: string) => `import * as fs from 'node:fs';
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', async () => {
  fs.writeFileSync(${JSON.stringify(path.join(tmp, 'received.json'))}, input);
  const req = JSON.parse(input);
  process.stdout.write('agent saw ' + req.files.length + ' file(s): ' + req.files.map((f) => f.path.split('/').pop()).join(', ') + '\\n');
  while (!fs.existsSync(${JSON.stringify(path.join(tmp, 'go'))})) await new Promise((r) => setTimeout(r, 50));
  process.stdout.write('and the rest of the answer\\n');
});
`;

const setup = {
  prefix: 'e2e',
  files: {
    'src/main.ts': 'export function main() {\n  return "needle";\n}\n',
    'src/components/Button.tsx': 'export const Button = () => null;\n',
    'docs/': '',
    'README.md': '# proj\n',
  },
  agent,
  // The contract's 2 s content-search budget is a machine-speed bound: on a loaded machine it answers
  // "0 results · partial" (seen at load 10). Its partial answers are tested in packages/server.
  serveArgs: ['--grep-deadline', '30'],
};

describeWorkbench('workbench end to end', setup, (wb) => {
  it('attaches, completes, sends, streams, reloads, and searches file contents', async () => {
    const { context, page, errors } = await wb.open();
    // The token left the address bar.
    await page.waitForFunction(() => !location.hash.includes('token'));
    const box = page.getByLabel('Message', { exact: true });

    // @ picks a file, then a folder; each stages a chip.
    await box.click();
    await box.pressSequentially('explain @main');
    await option(page, 'main.ts').waitFor();
    await box.press('Enter');
    // The rows seen may answer an earlier prefix; the Enter is then held until `@main` answers: its chip is the event.
    await page.getByTestId('preview-strip').locator('[data-file-chip]').waitFor();
    await box.pressSequentially('in @compon');
    await option(page, 'components/').click();
    expect(await box.inputValue()).toBe('explain @src/main.ts in @src/components/ ');
    const strip = page.getByTestId('preview-strip');
    await strip.locator('[data-file-chip]').waitFor();
    await strip.locator('[data-dir-chip]').waitFor();

    // ./ completion: a folder inserts dir/ and reopens on the next level.
    await box.pressSequentially('vs ./sr');
    await option(page, 'src/').waitFor();
    await box.press('Tab');
    await option(page, 'main.ts').waitFor();
    expect(await box.inputValue()).toBe('explain @src/main.ts in @src/components/ vs ./src/');
    await box.press('Escape');

    // Send: the user bubble shows chips; the agent's reply streams in.
    await box.press('Enter');
    const bubble = page.getByTestId('user-message').last();
    await bubble.locator(`[title="${wb.proj}/src/components"]`).waitFor();
    await bubble.locator(`[title="${wb.proj}/src/main.ts"]`).waitFor();
    const reply = page.getByTestId('assistant-message').last();
    await reply.getByText('agent saw 1 file(s): main.ts').waitFor();
    expect(await reply.getAttribute('data-status')).toBe('streaming');
    fs.writeFileSync(path.join(wb.tmp, 'go'), '');
    await reply.getByText('and the rest of the answer').waitFor();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="assistant-message"]:last-of-type')
          ?.getAttribute('data-status') !== 'streaming',
    );
    const payload = JSON.parse(fs.readFileSync(path.join(wb.tmp, 'received.json'), 'utf8'));
    expect(payload.text).toBe(
      `explain [attached_file 1] ${wb.proj}/src/main.ts in [attached_dir 1] ${wb.proj}/src/components vs ./src/`,
    );
    expect(payload.files[0].text).toContain('needle');
    expect(await box.inputValue()).toBe('');

    // ../../ leads out of the project: said so, never "No matching files".
    await box.pressSequentially('../../');
    await page
      .getByRole('status')
      .getByText(/ends up outside the project/)
      .waitFor();
    await box.fill('');

    // A draft with a hand-typed folder token survives a reload, as does the conversation.
    await box.pressSequentially('next: @docs/ ');
    await strip.locator('[data-dir-chip]').waitFor();
    await page.reload();
    await page.getByTestId('user-message').last().locator(`[title="${wb.proj}/src/main.ts"]`).waitFor();
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('next: @docs/ ');
    await page.getByTestId('preview-strip').locator('[data-dir-chip]').waitFor();
    await page.getByTestId('assistant-message').last().getByText('and the rest of the answer').waitFor();

    // A folder chip in the thread opens the folder in the Files rail.
    await page.getByRole('button', { name: `Open folder ${wb.proj}/src/components` }).click();
    await page.locator('.tree-row.focused', { hasText: 'components' }).waitFor();

    // Content search in the Files rail, then open the hit at its line.
    await page.getByRole('button', { name: 'Search file contents' }).click();
    await page.getByPlaceholder('Search in files…').fill('needle');
    await page.getByTestId('file-grep-status').getByText('1 matching line in 1 file').waitFor();
    await page
      .locator('.hit-group', { has: page.locator('.hit-file[title="src/main.ts"]') })
      .locator('.hit-line')
      .click();
    await page.locator('.code-line.hit[data-line="2"]').waitFor();
    expect(await page.locator('.code-line.hit').textContent()).toContain('return "needle";');

    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);

  it('is usable at 390 px wide: no horizontal scroll, the composer and the Files pane reachable', async () => {
    const { context, page } = await wb.open({ width: 390 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Files', exact: true }).click();
    await page.getByRole('treeitem', { name: /src/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // "Add to message" by keyboard: the row's add button is the next stop after the row, and the thread pane
    // comes back showing the folder staged.
    await page.getByRole('treeitem', { name: /src/ }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Add src/ to message',
    );
    await page.keyboard.press('Enter');
    await page.getByTestId('preview-strip').locator('[data-dir-chip]').waitFor();
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('@src/ ');
    await context.close();
  }, 120_000);

  it.runIf(SCREENSHOTS)(
    'writes the README screenshots',
    async () => {
      for (const scheme of ['light', 'dark'] as const) {
        const { context, page } = await wb.open({ scheme });
        await page.getByTestId('user-message').first().waitFor();
        await page.getByRole('button', { name: 'Search file contents' }).click();
        await page.getByPlaceholder('Search in files…').fill('main');
        await page
          .getByTestId('file-grep-status')
          .getByText(/matching line/)
          .waitFor();
        const box = page.getByLabel('Message', { exact: true });
        await box.fill('');
        await box.click();
        await box.pressSequentially('compare @src/components/ with @ma');
        await option(page, 'main.ts').waitFor();
        await page.screenshot({ path: path.join(DOCS, `workbench-${scheme}.png`) });
        await box.fill('');
        await context.close();
      }
    },
    120_000,
  );
});
