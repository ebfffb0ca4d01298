/**
 * Text for a terminal, with every control character made visible (as `ls` does on a terminal; piped, output
 * stays byte-exact for the program reading it). A file name or a line of a file can hold an
 * escape sequence (`ESC ] 52 ;` sets the clipboard, `ESC [ 2 J` clears the screen, a title sequence can lie about
 * what ran) or a bidirectional override that shows `gnp.exe` for `exe.png`; printed raw, it acts on the reader's
 * terminal instead of being read. `trawl grep`, `trawl find`, `trawl complete` and `trawl search` print what they
 * found through this. `--json` needs nothing: JSON escapes controls itself. `trawl rg` prints bytes as ripgrep
 * does.
 */

/** C0 controls but tab and newline, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The same, and the newline: inside one field of a row (a file name), where a newline would forge a row. */
const CONTROL_IN_FIELD =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each control character written as its escape (`\x1b`, `\u202e`), newlines and tabs kept. */
export function visibleText(text: string): string {
  return text.replace(CONTROL, escaped);
}

/** One field of a row (a name, a matched line) for a terminal: its newlines escaped too (`\x0a`); exact piped. */
export function fieldForTerminal(stream: { isTTY?: boolean }, text: string): string {
  return stream.isTTY === true ? text.replace(CONTROL_IN_FIELD, escaped) : text;
}

/** One control character as its escape: `\xNN` up to U+00FF, else `\uNNNN`. */
function escaped(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** What a command prints to `stream`: made visible on a terminal, exact otherwise. */
export function forTerminal(stream: { isTTY?: boolean }, text: string): string {
  return stream.isTTY === true ? visibleText(text) : text;
}
