/**
 * Names from the tree shown as what they are. A file name may hold characters that are never drawn or that
 * reorder what is drawn: the Unicode direction controls (U+202E makes `report\u202Etxt.exe` read `reportexe.txt`),
 * zero-width characters (two different files look the same), and control characters. Each is shown instead as
 * its code point, `[U+202E]` (in a `hidden-char` span, for styling). Used wherever a name is shown: the picker, the
 * Files rail and its tree, quick open, the composer's chips and a sent message's, the viewer's title.
 */

/** C0 and C1 controls, DEL, the Arabic letter mark, zero-width and direction marks, separators, embeddings,
 * overrides, isolates, the word joiner and invisible operators, and the BOM. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** `[U+202E]` for one hidden character. */
function codePoint(c: string): string {
  return `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`;
}

/** `text` with each hidden character written as its code point, for attributes and other plain strings. */
export function visibleName(text: string): string {
  return text.replace(HIDDEN, codePoint);
}

/** `text` as elements: its hidden characters each a `[U+XXXX]` (class `hidden-char`). */
export function Visible({ text }: { text: string }) {
  if (text.search(HIDDEN) < 0) return <>{text}</>;
  const out: React.ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(HIDDEN)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(
      <span key={m.index} className="hidden-char">
        {codePoint(m[0])}
      </span>,
    );
    at = m.index + 1;
  }
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}
