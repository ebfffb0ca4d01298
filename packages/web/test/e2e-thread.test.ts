// The conversation in a real browser: Debian's chromium against a real `trawl serve --agent`, whose fake agent is told
// what to do by the message's first word: `md` streams a markdown reply, `xss` one full of script, `fail` exits 3
// with a reason, `hang` writes a line and waits until it is killed, `gate NAME` writes a line and finishes when the
// test creates the file NAME (so a test controls when a reply ends, with no timing). With TRAWL_SCREENSHOTS=1 it also
// writes docs/thread-{light,dark}-{desktop,phone}.png.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeWorkbench } from './e2e/fixture.js';

const WEB = path.resolve(import.meta.dirname, '..');

/** A reply with every construct the thread renders; the long line must scroll inside its block. */
export const MARKDOWN_REPLY = [
  '## Plan',
  '',
  'Use **bold**, *emphasis*, ~~old~~ and `inline code`; see [the docs](https://example.com/docs).',
  '',
  '- [x] read the code',
  '- [ ] write the fix',
  '',
  '| file | lines |',
  '| --- | ---: |',
  '| src/main.ts | 3 |',
  '',
  '```ts',
  'export function main(): string {',
  `  return "${'x'.repeat(400)}";`,
  '}',
  '```',
  '',
  'Done.',
  '',
].join('\n');

/** Every way a reply could try to run script or load something. */
const XSS_REPLY = [
  'Look: <img src=x onerror="window.__xss=1"> and <svg onload="window.__xss=2"></svg>',
  '',
  '<script>window.__xss=3</script>',
  '',
  '[click me](javascript:window.__xss=4) · [entity](jav&#x61;script:window.__xss=5) · [tab](java\tscript:window.__xss=6)',
  '',
  '<a href="javascript:window.__xss=7">raw link</a> <iframe srcdoc="<script>parent.__xss=8</script>"></iframe>',
  '',
  '![pixel](https://tracker.invalid/p.png) <details open ontoggle="window.__xss=9">x</details>',
  '',
  '<style>body{display:none}</style>',
  '',
].join('\n');

/** The fake agent: the message's first word says what it does (see the top of this file). */
const agent = (tmp: string) => `import * as fs from 'node:fs';
import * as path from 'node:path';
const MD = ${JSON.stringify(MARKDOWN_REPLY)};
const XSS = ${JSON.stringify(XSS_REPLY)};
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', async () => {
  const req = JSON.parse(input);
  const [word, arg] = req.text.trim().split(/\\s+/);
  const wait = async (file) => { while (!fs.existsSync(file)) await new Promise((r) => setTimeout(r, 25)); };
  if (word === 'md') {
    // In pieces, as a model streams: every cut lands somewhere inside the markdown.
    for (let i = 0; i < MD.length; i += 37) process.stdout.write(MD.slice(i, i + 37));
  } else if (word === 'xss') process.stdout.write(XSS);
  else if (word === 'fail') {
    process.stdout.write('Starting on it…\\n');
    process.stderr.write('model quota exhausted for this key\\n');
    process.exit(3);
  } else if (word === 'hang') {
    process.stdout.write('thinking about ' + (arg ?? 'it') + '…\\n');
    setInterval(() => {}, 1000);
  } else if (word === 'gate') {
    process.stdout.write('first line of ' + arg + '\\n\\n');
    await wait(path.join(${JSON.stringify(tmp)}, arg));
    for (let i = 1; i <= 80; i++) process.stdout.write('line ' + i + ' of ' + arg + '\\n\\n');
    process.stdout.write('end of ' + arg + '\\n');
  } else process.stdout.write('you said: ' + req.text + '\\n');
});
`;

describeWorkbench(
  'the conversation end to end',
  {
    prefix: 'e2e-thread',
    files: { 'src/main.ts': 'export function main() {\n  return "needle";\n}\n' },
    agent,
  },
  (wb) => {
    /** Starts a fresh conversation and sends `text`; resolves with the reply's locator. */
    const ask = async (page: Page, text: string) => {
      await page.locator('button.new-conv').click();
      await page.locator('.thread-empty').waitFor();
      const box = page.getByLabel('Message', { exact: true });
      await box.fill(text);
      await box.press('Enter');
      await page.getByTestId('user-message').last().getByText(text).waitFor();
      return page.getByTestId('assistant-message').last();
    };

    const settled = (page: Page) =>
      page.waitForFunction(() => {
        const all = document.querySelectorAll('[data-testid="assistant-message"]');
        const last = all[all.length - 1];
        return last && last.getAttribute('data-status') !== 'streaming';
      });

    it('renders a markdown reply: headings, emphasis, task lists, tables, highlighted code that scrolls in its block, copy buttons', async () => {
      const { context, page, errors } = await wb.open();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: wb.server.origin });
      const grammars: string[] = [];
      page.on('request', (r) => {
        if (/\/assets\/(core|typescript)-[\w-]+\.js$/.test(r.url())) grammars.push(r.url());
      });
      // Nothing of the highlighter is fetched before a reply needs it.
      await page.waitForLoadState('networkidle');
      expect(grammars).toEqual([]);

      const reply = await ask(page, 'md please');
      await settled(page);
      await reply.locator('h2', { hasText: 'Plan' }).waitFor();
      expect(await reply.locator('strong').first().textContent()).toBe('bold');
      expect(await reply.locator('em').first().textContent()).toBe('emphasis');
      expect(await reply.locator('del').textContent()).toBe('old');
      expect(
        await reply
          .locator('li.task input[type=checkbox]')
          .evaluateAll((b) => b.map((x) => (x as HTMLInputElement).checked)),
      ).toEqual([true, false]);
      expect(await reply.locator('table th').allTextContents()).toEqual(['file', 'lines']);
      expect(await reply.locator('table td').allTextContents()).toEqual(['src/main.ts', '3']);
      const link = reply.getByRole('link', { name: 'the docs' });
      expect(await link.getAttribute('href')).toBe('https://example.com/docs');
      expect(await link.getAttribute('rel')).toContain('noopener');
      expect(await reply.textContent()).not.toContain('**');

      // The fence is highlighted once its grammar has loaded (lazily, on first use).
      const code = reply.locator('.code-block code[data-highlighted="true"]');
      await code.waitFor();
      expect(await code.locator('.hljs-keyword').first().textContent()).toBe('export');
      expect(grammars.some((u) => /\/core-/.test(u)) && grammars.some((u) => /\/typescript-/.test(u))).toBe(
        true,
      );

      // The 400-character line scrolls inside its block; the page does not scroll sideways.
      const pre = reply.locator('.code-block pre');
      const { scroll, client } = await pre.evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
      }));
      expect(scroll).toBeGreaterThan(client);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

      // Copy: the block copies its code, the reply its markdown source.
      await reply.getByRole('button', { name: 'Copy ts' }).click();
      await reply.getByRole('button', { name: 'Copy ts' }).getByText('Copied').waitFor();
      const block = MARKDOWN_REPLY.split('```ts\n')[1]!.split('\n```')[0];
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(block);
      await reply.getByRole('button', { name: 'Copy reply' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MARKDOWN_REPLY);

      // After a reload the stored reply renders the same way.
      await page.reload();
      await page.getByTestId('assistant-message').last().locator('table th').first().waitFor();
      expect(errors).toEqual([]);
      await context.close();
    }, 180_000);

    it('runs nothing a reply contains: HTML shows as text, script links are not links, images are not fetched', async () => {
      // The page's CSP would block inline handlers anyway; bypassing it here tests the renderer itself.
      const { context, page } = await wb.open({ bypassCSP: true });
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const fetched: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('tracker.invalid') || r.url().endsWith('/x')) fetched.push(r.url());
      });
      const reply = await ask(page, 'xss now');
      await settled(page);
      await reply.getByText('raw link', { exact: false }).waitFor({ state: 'attached' });
      const found = await reply.evaluate((root) => ({
        dangerous: root.querySelectorAll('script, img, svg:not(.icon), iframe, style, details, object, embed')
          .length,
        handlers: [...root.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName}[${a.name}]`),
        ),
        hrefs: [...root.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      }));
      expect(found.dangerous).toBe(0);
      expect(found.handlers).toEqual([]);
      expect(found.hrefs.filter((h) => !/^https?:/.test(h ?? ''))).toEqual([]);
      // The would-be links are there as text, and clicking them does nothing.
      await reply.getByText('click me').click();
      await reply.getByText('entity').click();
      expect(await reply.textContent()).toContain('<script>window.__xss=3</script>');
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);
      expect(fetched).toEqual([]);
      expect(await page.evaluate(() => getComputedStyle(document.body).display)).not.toBe('none');
      await context.close();
    }, 120_000);

    it('keeps the first load under 150 KiB of gzip JS, with no grammar in it', () => {
      const html = fs.readFileSync(path.join(WEB, 'dist/index.html'), 'utf8');
      const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
      expect(scripts.length).toBeGreaterThan(0);
      const gzip = scripts.reduce(
        (n, s) => n + gzipSync(fs.readFileSync(path.join(WEB, 'dist', s))).length,
        0,
      );
      expect(gzip).toBeLessThanOrEqual(150 * 1024);
      // A string of highlight.js's core: none of it may be in the entry (only the import that fetches it).
      const entry = scripts.map((s) => fs.readFileSync(path.join(WEB, 'dist', s), 'utf8')).join('\n');
      expect(entry.includes('Could not find the language')).toBe(false);
    });
  },
);
