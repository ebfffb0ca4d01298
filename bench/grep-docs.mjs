#!/usr/bin/env node
// Generates bench/grep.mjs's document corpus: COUNT .docx/.pptx/.xlsx/.pdf files of realistic sizes (a quarter each),
// written by the test fixtures' generators (real zips with CRCs and a central directory; PDFs with deflated content
// streams and a cross-reference table), words from a fixed vocabulary with a seeded generator, so every build is
// identical. Needs tsx (the fixtures are TypeScript):
//
//   node --import tsx bench/grep-docs.mjs DIR COUNT
import * as fs from 'node:fs';
import * as path from 'node:path';
import { docx, pdf, pptx, xlsx } from '../packages/core/test/fixtures/office-docs.ts';
import { rng } from '../packages/core/test/parity/random.ts';

const [dir, countArg] = process.argv.slice(2);
const count = Number(countArg ?? 400);
const random = rng(9);
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const WORDS = (
  'the of and to in is for on that with as by this be are from at or an it not have was which will can all ' +
  'project budget quarter revenue forecast customer contract delivery schedule review meeting minutes risk ' +
  'design system release network server storage policy security audit report summary action owner status ' +
  'finance marketing sales support hiring roadmap milestone vendor invoice payment approval region total'
).split(' ');
const words = (n) => Array.from({ length: n }, () => WORDS[int(0, WORDS.length - 1)]).join(' ');
const sentence = () => {
  const s = words(int(8, 24));
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
};

const makers = {
  // A memo or report: 40–400 paragraphs of 1–4 sentences (≈ 5–120 KB of text).
  docx: () =>
    docx(Array.from({ length: int(40, 400) }, () => Array.from({ length: int(1, 4) }, sentence).join(' '))),
  // A deck: 8–40 slides, a title and 3–8 bullets each.
  pptx: () =>
    pptx(
      Array.from({ length: int(8, 40) }, () => [
        words(int(2, 6)),
        ...Array.from({ length: int(3, 8) }, sentence),
      ]),
    ),
  // A workbook: 1–3 sheets of 200–3 000 rows × 6 columns (text, numbers, a boolean, a cached formula).
  xlsx: () =>
    xlsx(
      Array.from({ length: int(1, 3) }, (_, s) => ({
        name: `Sheet${s + 1}`,
        rows: Array.from({ length: int(200, 3_000) }, (_, r) => [
          words(int(1, 3)),
          words(int(2, 6)),
          int(0, 100_000),
          Math.round(random() * 1e6) / 100,
          random() < 0.5,
          { formula: `C${r + 1}*2`, cached: int(0, 200_000) },
        ]),
      })),
    ),
  // A paper: 3–40 pages, one long text run each (the fixture writes a line per page), ≈ 1–3 KB a page.
  pdf: () =>
    pdf(Array.from({ length: int(3, 40) }, () => Array.from({ length: int(8, 20) }, sentence).join(' '))),
};

fs.mkdirSync(dir, { recursive: true });
const kinds = Object.keys(makers);
let bytes = 0;
for (let i = 0; i < count; i++) {
  const kind = kinds[i % kinds.length];
  const sub = path.join(dir, kind, String(Math.floor(i / 40)));
  fs.mkdirSync(sub, { recursive: true });
  const data = makers[kind]();
  bytes += data.length;
  fs.writeFileSync(path.join(sub, `doc-${String(i).padStart(4, '0')}.${kind}`), data);
}
console.log(JSON.stringify({ count, bytes }));
