import * as path from 'node:path';
import type { PartEnd } from './docx.js';
import { DOC_SHARED_STRINGS_MAX_CHARS } from './limits.js';
import type { SegmentSink, TextBudget } from './types.js';
import { parseXmlMember } from './xml.js';
import type { OfficeZip } from './zip.js';

/**
 * .xlsx: sheets in workbook order (`xl/workbook.xml` through its relationships), rows in file order, every kind of
 * cell — shared strings, inline strings, numbers, booleans, cached formula results, errors — TAB-joined, one segment
 * per row with a value, labelled `<sheet> · row <n>` (n is the row's own number, so empty rows keep their place).
 * A row is built inside the character budget, never joined then cut. A sheet of empty rows produces no text, so the
 * deadline is sampled every `rowStride` rows as well as between chunks.
 */
export async function extractXlsx(
  office: OfficeZip,
  sink: SegmentSink,
  budget: TextBudget,
  rowStride: number,
): Promise<PartEnd> {
  const sheets = await sheetsInOrder(office, budget);
  const shared = await sharedStrings(office, budget);
  const whole = shared.whole;
  for (const sheet of sheets) {
    if (budget.expired() || budget.capped) return { whole: false, stopped: false };
    const entry = office.members.get(sheet.part);
    if (!entry) continue;
    let stopped = false;
    let timedOut = false;
    let rowNumber = 0;
    let rowsSeen = 0;
    let cells: string[] = [];
    let cellType = '';
    let value = '';
    let inValue = false;
    let inInline = false;
    const end = await parseXmlMember(
      office,
      entry,
      {
        open(name, attrs) {
          if (name === 'row') {
            const r = Number(attrs['r']);
            rowNumber = Number.isSafeInteger(r) && r > 0 ? r : rowNumber + 1;
            cells = [];
          } else if (name === 'c') {
            cellType = attrs['t'] ?? 'n';
            value = '';
          } else if (name === 'v') inValue = true;
          else if (name === 't' && cellType === 'inlineStr') inInline = true;
        },
        text(t) {
          // A cell's raw value is at most a shared-string index or a number: bounded by what the budget allows.
          if ((inValue || inInline) && value.length <= budget.chars) value += t;
        },
        close(name) {
          if (name === 'v') inValue = false;
          else if (name === 't') inInline = false;
          else if (name === 'c') {
            const shown = cellText(cellType, value, shared.strings);
            if (shown !== '' && !stopped && !timedOut) {
              const kept = budget.take(shown, 1);
              if (kept !== '') cells.push(kept);
            }
          } else if (name === 'row') {
            rowsSeen++;
            if (cells.length > 0 && !stopped && !timedOut) {
              if (sink({ label: `${sheet.name} · row ${rowNumber}`, text: cells.join('\t') })) stopped = true;
            }
            if (rowsSeen % rowStride === 0 && budget.expired()) timedOut = true;
          }
        },
      },
      () => !stopped && !timedOut && !budget.capped && !budget.expired(),
    );
    if (stopped) return { whole: true, stopped: true };
    if (end !== 'end' || timedOut || budget.capped) return { whole: false, stopped: false };
  }
  return { whole: whole && !budget.capped, stopped: false };

  function cellText(type: string, raw: string, strings: readonly string[]): string {
    switch (type) {
      case 's': {
        const i = Number(raw);
        return Number.isSafeInteger(i) ? (strings[i] ?? '') : '';
      }
      case 'b':
        return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
      default:
        // n, str (cached formula result), e (error), inlineStr, d (ISO date): shown as stored.
        return raw;
    }
  }
}

interface SheetRef {
  name: string;
  part: string;
}

/** Sheet names in workbook order, each with its worksheet part (resolved through `xl/_rels/workbook.xml.rels`). */
async function sheetsInOrder(office: OfficeZip, budget: TextBudget): Promise<SheetRef[]> {
  const targets = new Map<string, string>();
  const rels = office.members.get('xl/_rels/workbook.xml.rels');
  if (rels) {
    await parseXmlMember(
      office,
      rels,
      {
        open(name, attrs) {
          if (name === 'Relationship' && attrs['Id'] && attrs['Target'])
            targets.set(attrs['Id'], attrs['Target']);
        },
      },
      () => !budget.expired(),
    );
  }
  const sheets: SheetRef[] = [];
  const workbook = office.members.get('xl/workbook.xml');
  if (workbook) {
    await parseXmlMember(
      office,
      workbook,
      {
        open(name, attrs) {
          if (name !== 'sheet') return;
          const id = attrs['r:id'] ?? Object.entries(attrs).find(([k]) => k.endsWith(':id'))?.[1];
          const target = id ? targets.get(id) : undefined;
          if (!target) return;
          const part = target.startsWith('/') ? target.slice(1) : path.posix.normalize(`xl/${target}`);
          sheets.push({ name: attrs['name'] ?? '', part });
        },
      },
      () => !budget.expired(),
    );
  }
  return sheets;
}

/** The shared-string table (rich-text runs concatenated, phonetic hints left out), kept under its own cap. */
async function sharedStrings(
  office: OfficeZip,
  budget: TextBudget,
): Promise<{ strings: string[]; whole: boolean }> {
  const entry = office.members.get('xl/sharedStrings.xml');
  if (!entry) return { strings: [], whole: true };
  const strings: string[] = [];
  let room = DOC_SHARED_STRINGS_MAX_CHARS;
  let current = '';
  let inText = false;
  let inPhonetic = false;
  const end = await parseXmlMember(
    office,
    entry,
    {
      open(name) {
        if (name === 'si') current = '';
        else if (name === 'rPh') inPhonetic = true;
        else if (name === 't' && !inPhonetic) inText = true;
      },
      text(t) {
        if (!inText || room <= 0) return;
        const kept = t.length <= room ? t : t.slice(0, room);
        room -= kept.length;
        current += kept;
      },
      close(name) {
        if (name === 't') inText = false;
        else if (name === 'rPh') inPhonetic = false;
        else if (name === 'si') strings.push(current);
      },
    },
    () => room > 0 && !budget.expired(),
  );
  return { strings, whole: end === 'end' && room > 0 };
}
