import { REDACTED_PREFIX, redactCredentials } from './credentials.js';
import { EXFILTRATION_MARKER, redactExfiltrationUrls } from './exfiltration.js';

/**
 * The one redactor for what an agent's tools return (MCP `search`, `grep_files`, `find_files`, `list_dir`) and for
 * content-grep rows: credential-shaped values (credentials.ts) then exfiltration-shaped URLs (exfiltration.ts),
 * with the number of values replaced, so an answer can say "2 values redacted" instead of hiding that it changed
 * a line. A model's context is a place text leaves the machine from: a secret printed there is a secret sent.
 */

/** Redacted text and how many values were replaced in it. */
export interface ValueRedaction {
  text: string;
  count: number;
}

/** Redacts one piece of text (a line, a path, a preview) and counts the values replaced. */
export function redactValues(text: string): ValueRedaction {
  const creds = redactCredentials(text);
  const urls = redactExfiltrationUrls(creds.text);
  const count =
    creds.count +
    (urls === creds.text ? 0 : markers(urls, EXFILTRATION_MARKER) - markers(creds.text, EXFILTRATION_MARKER));
  return { text: urls, count };
}

function markers(text: string, marker: string): number {
  let n = 0;
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length)) n++;
  return n;
}

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const PEM_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/** A line of a PEM body: base64 only, the 64 (or OpenSSH's 70) characters a line of one holds, or its last line. */
const PEM_BODY = /^\s*[A-Za-z0-9+/]{40,76}={0,2}\s*$/;
const PEM_TAIL = /^\s*[A-Za-z0-9+/]{1,76}={0,2}\s*$/;
const KEY_MARKER = `${REDACTED_PREFIX}: private-key]`;

/**
 * Redacts the lines of one file as they are shown, in line order (numbers ascending, gaps allowed). A private key
 * spans lines, and a search shows them one by one (a match, its context): each line alone would let the key's body
 * through, since only its BEGIN line names it. So a BEGIN line opens a key that runs to its END line, every line of
 * it replaced, and a base64 line the width of a PEM body is taken for one even when its BEGIN line is not shown
 * (`search "MII"` matches inside a key). A key counts once, however many lines it spans.
 */
export class LineRedactor {
  /** Values replaced so far. */
  count = 0;
  private inKey = false;
  private lastLine = -1;

  /** The line `n` as it may be shown. */
  line(n: number, text: string): string {
    const contiguous = n === this.lastLine + 1;
    this.lastLine = n;
    if (this.inKey && !contiguous && !PEM_BODY.test(text) && !PEM_END.test(text)) this.inKey = false;
    if (this.inKey) {
      if (PEM_END.test(text)) {
        this.inKey = false;
        const after = text.slice(text.search(PEM_END)).replace(PEM_END, '');
        return KEY_MARKER + this.values(after);
      }
      return PEM_BODY.test(text) || PEM_TAIL.test(text) ? KEY_MARKER : this.values(text);
    }
    const begin = text.search(PEM_BEGIN);
    if (begin !== -1 && !PEM_END.test(text.slice(begin))) {
      this.inKey = true;
      this.count++;
      return `${this.values(text.slice(0, begin))}${KEY_MARKER}`;
    }
    if (PEM_BODY.test(text) && text.trim().length >= 60 && /[A-Z]/.test(text) && /[a-z]/.test(text)) {
      // A key's body without its BEGIN line shown: one value for the run of such lines.
      this.inKey = true;
      this.count++;
      return KEY_MARKER;
    }
    return this.values(text);
  }

  private values(text: string): string {
    if (text === '') return text;
    const r = redactValues(text);
    this.count += r.count;
    return r.text;
  }
}

/** "2 values redacted" — the words an answer ends with when it replaced any. */
export function redactedWords(count: number): string {
  return `${count} credential-shaped value${count === 1 ? ' was' : 's were'} redacted ([REDACTED: kind]).`;
}
