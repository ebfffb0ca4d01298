import type { PartEnd } from './docx.js';
import type { SegmentSink, TextBudget } from './types.js';
import { parseXmlMember } from './xml.js';
import type { OfficeZip } from './zip.js';

const SLIDE_PART = /^ppt\/slides\/slide(\d+)\.xml$/;

/**
 * .pptx: slides in part-number order (`ppt/slides/slideN.xml`; N is what PowerPoint shows for an unreordered deck),
 * each slide's paragraphs joined by `\n`, label `slide N`. Slides without text produce nothing.
 */
export async function extractPptx(
  office: OfficeZip,
  sink: SegmentSink,
  budget: TextBudget,
): Promise<PartEnd> {
  const slides = [...office.members.entries()]
    .map(([name, entry]) => ({ n: Number(SLIDE_PART.exec(name)?.[1] ?? Number.NaN), entry }))
    .filter((s) => Number.isSafeInteger(s.n))
    .sort((a, b) => a.n - b.n);
  for (const slide of slides) {
    if (budget.expired() || budget.capped) return { whole: false, stopped: false };
    const paragraphs: string[] = [];
    let para = '';
    let inText = false;
    const end = await parseXmlMember(
      office,
      slide.entry,
      {
        open(name) {
          if (name === 'p') para = '';
          else if (name === 't') inText = true;
          else if (name === 'br') para += budget.take('\n');
        },
        text(t) {
          if (inText) para += budget.take(t);
        },
        close(name) {
          if (name === 't') inText = false;
          else if (name === 'p') {
            if (para.trim() !== '') paragraphs.push(para);
            para = '';
          }
        },
      },
      () => !budget.capped && !budget.expired(),
    );
    if (paragraphs.length > 0 && sink({ label: `slide ${slide.n}`, text: paragraphs.join('\n') }))
      return { whole: true, stopped: true };
    if (end !== 'end' || budget.capped) return { whole: false, stopped: false };
  }
  return { whole: true, stopped: false };
}
