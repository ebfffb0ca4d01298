import type { SegmentSink, TextBudget } from './types.js';
import { parseXmlMember } from './xml.js';
import type { OfficeZip } from './zip.js';

/** What an Office extractor reports: whether the whole text was seen, and whether the sink stopped it. */
export interface PartEnd {
  whole: boolean;
  stopped: boolean;
}

/**
 * .docx: the body's paragraphs (`word/document.xml`), each the concatenation of its text runs, in document order;
 * tabs and line breaks inside a paragraph kept as `\t` and `\n`. One segment per non-empty paragraph, no label
 * (Word has no stable place to name: pages are a layout result).
 */
export async function extractDocx(
  office: OfficeZip,
  sink: SegmentSink,
  budget: TextBudget,
): Promise<PartEnd> {
  const entry = office.members.get('word/document.xml');
  if (!entry) return { whole: true, stopped: false };
  let para = '';
  let inText = false;
  let stopped = false;
  const append = (s: string) => {
    para += budget.take(s);
  };
  const end = await parseXmlMember(
    office,
    entry,
    {
      open(name) {
        if (name === 'p') para = '';
        else if (name === 't') inText = true;
        else if (name === 'tab') append('\t');
        else if (name === 'br' || name === 'cr') append('\n');
      },
      text(t) {
        if (inText && !stopped) append(t);
      },
      close(name) {
        if (name === 't') inText = false;
        else if (name === 'p' && !stopped) {
          if (para.trim() !== '' && sink({ label: '', text: para })) stopped = true;
          para = '';
        }
      },
    },
    () => !stopped && !budget.capped && !budget.expired(),
  );
  return { whole: end === 'end' && !budget.capped, stopped };
}
