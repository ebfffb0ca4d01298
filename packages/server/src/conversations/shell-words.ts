/**
 * Splits an operator's command line into argv the way a POSIX shell splits words — whitespace separates; '…'
 * quotes literally; "…" quotes with \" \\ \$ \` escapes; a backslash outside quotes escapes the next character —
 * with NO expansion of any kind (no variables, globs, substitutions, redirections: `$HOME` stays `$HOME`). The
 * result is spawned without a shell, so nothing a caller sends can ever become part of a command.
 * Returns an error message for an unterminated quote or an empty command.
 */
export function splitShellWords(line: string): { argv: string[] } | { error: string } {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { error: 'unterminated single quote in --agent' };
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return { error: 'unterminated double quote in --agent' };
        const c = line[i]!;
        if (c === '"') break;
        if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) {
          word += line[i + 1];
          i += 2;
        } else {
          word += c;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (ch === '\\') {
      if (i + 1 < line.length) word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) argv.push(word);
  if (argv.length === 0) return { error: '--agent needs a command' };
  return { argv };
}
