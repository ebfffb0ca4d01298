import { isUtf8 } from 'node:buffer';
import { xxHash32 } from './xxhash32.js';

/**
 * The hashline tag of a file: the low 16 bits of xxHash32 (seed 0) over its text with line endings made
 * `\n` and trailing spaces, tabs and carriage returns dropped from every line, as 4 upper-case hex digits.
 * Same content, same tag, whichever tool computed it.
 */
export function hashlineTag(content: Uint8Array | string): string {
  if (typeof content !== 'string') {
    const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    // Valid UTF-8 decodes to itself and the rule touches only ASCII bytes: work on the bytes.
    if (isUtf8(buf)) return formatTag(xxHash32(needsNormalising(buf) ? normaliseBytes(buf) : buf, 0));
    content = buf.toString('utf8');
  }
  return formatTag(xxHash32(Buffer.from(normaliseForTag(content), 'utf8'), 0));
}

/** CRLF and lone CR become LF; runs of space, tab and CR before each LF and at the end are removed. */
export function normaliseForTag(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\r]+(?=\n)/g, '')
    .replace(/[ \t\r]+$/, '');
}

const SPACE_LF = Buffer.from(' \n');
const TAB_LF = Buffer.from('\t\n');

function needsNormalising(b: Buffer): boolean {
  if (b.length === 0) return false;
  if (b.includes(13) || b.includes(SPACE_LF) || b.includes(TAB_LF)) return true;
  const last = b[b.length - 1];
  return last === 32 || last === 9;
}

/**
 * normaliseForTag on UTF-8 bytes, in one pass: multi-byte sequences never hold bytes below 0x80, so the
 * rule (which only looks at CR, LF, space and tab) can work on bytes.
 */
export function normaliseBytes(b: Uint8Array): Uint8Array {
  const n = b.length;
  const out = new Uint8Array(n);
  let w = 0;
  let run = -1; // where a run of trailing spaces/tabs began in `out`
  for (let i = 0; i < n; i++) {
    let c = b[i]!;
    if (c > 32) {
      out[w++] = c;
      run = -1;
      continue;
    }
    if (c === 13) {
      if (i + 1 < n && b[i + 1] === 10) continue; // CRLF: the LF follows
      c = 10; // a lone CR ends a line
    }
    if (c === 10) {
      if (run >= 0) w = run;
      out[w++] = 10;
      run = -1;
    } else if (c === 32 || c === 9) {
      if (run < 0) run = w;
      out[w++] = c;
    } else {
      out[w++] = c;
      run = -1;
    }
  }
  if (run >= 0) w = run;
  return out.subarray(0, w);
}

function formatTag(hash: number): string {
  return (hash & 0xffff).toString(16).toUpperCase().padStart(4, '0');
}
