// A file name's direction controls, zero-width and control characters are shown as their code points wherever the
// workbench shows a name, so `report\u202Etxt.exe` cannot pass for `reportexe.txt`.
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AttachRequest, Composer } from '../../src/composer/Composer.js';
import { RowLabel } from '../../src/ui/RowLabel.js';
import { visibleName } from '../../src/ui/Visible.js';
import { fakeServer, renderWithQuery } from './helpers.js';

afterEach(() => vi.unstubAllGlobals());

const HIDDEN = /[\u0000-\u001f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

describe('names with hidden characters', () => {
  it('writes each direction control, zero-width and control character as its code point', () => {
    expect(visibleName('report\u202etxt.exe')).toBe('report[U+202E]txt.exe');
    expect(visibleName('a\u200bb\u2066c\u0007d\u001be')).toBe('a[U+200B]b[U+2066]c[U+0007]d[U+001B]e');
    expect(visibleName('plain/ünïcode/名前.ts')).toBe('plain/ünïcode/名前.ts');
  });

  it('a row shows them as code points, its marks still on the characters matched', () => {
    const name = 'report\u202etxt.exe';
    const path = `/repo/d\u200bir/${name}`;
    const at = path.indexOf(name);
    const { container } = render(
      <RowLabel path={path} name={name} kind="file" root="/repo" positions={[at, at + 1, at + 7]} />,
    );
    const shown = container.textContent ?? '';
    expect(shown).not.toMatch(HIDDEN);
    expect(container.querySelector('.row-name')?.textContent).toBe('report[U+202E]txt.exe');
    expect(container.querySelector('.row-dir')?.textContent).toBe('d[U+200B]ir/');
    expect([...container.querySelectorAll('.row-name mark')].map((m) => m.textContent)).toEqual(['re', 't']);
    expect(container.querySelector('.row-name .hidden-char')?.textContent).toBe('[U+202E]');
  });

  it('a file chip in the composer shows them, and so does its tooltip', () => {
    fakeServer({});
    const rel = 'docs/report\u202etxt.exe';
    const ui = (a: AttachRequest | null) => (
      <Composer conversationId="c" project="/repo" onSend={async () => {}} attach={a} />
    );
    const r = renderWithQuery(ui(null));
    r.rerender(ui({ n: 1, items: [{ kind: 'file', rel, path: `/repo/${rel}` }] }));
    const chip = screen.getByTestId('preview-strip').querySelector('[data-file-chip]');
    expect(chip?.textContent).toContain('report[U+202E]txt.exe');
    expect(chip?.textContent).not.toMatch(HIDDEN);
    expect(chip?.getAttribute('title')).toBe('/repo/docs/report[U+202E]txt.exe');
  });
});
