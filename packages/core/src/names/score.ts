/**
 * trawl's name scorer: what answers every keystroke of the @-picker.
 *
 * Tiers (the reference's order, names/reference-score.ts, is the floor):
 *   exact name or stem 100 · name up to its first dot 96 · equal ignoring separators (`mmapc` = `mmap.c`) 92 ·
 *   prefix 50 (+4 when the prefix ends a word) · prefix ignoring separators 46 · substring of the name 30
 *   (+8 when it starts a word or camelCase hump, +2 when it ends one) · fuzzy 5..22 (always below the lexical tiers).
 * The fuzzy tier is an optimal alignment over the whole relative path: matched characters earn more at the start
 * of the name, of a path segment, of a word (`_ - . space`), of a camelCase hump or a digit run, inside the name,
 * and next to the previous match; gaps cost. So `fb` finds `FooBar.ts`, `ext4inode` finds `fs/ext4/inode.c`.
 * A query with `/` scores its last segment against the name (the tiers above) and its earlier segments, in order,
 * against the directories (`net/ipv4/tcp` → `net/ipv4/tcp.c` above `net/ipv4/tcp_input.c`).
 * Every match then gains the reference's length bonus (shorter names first) and loses a little for depth
 * (shallower paths first among equals).
 *
 * Modules: `target.ts` prepares candidates, `query.ts` the query, `tiers.ts` holds the scale and the shared
 * adjustments, `lexical.ts` the lexical tiers, `fuzzy.ts` the alignment. This module puts them together.
 */
import { fuzzyScoreTarget } from './fuzzy.js';
import { type LexicalMatch, lexicalScoreTarget } from './lexical.js';
import { type NameQuery, prepareNameQuery } from './query.js';
import { type NameTarget, nameTarget } from './target.js';

/** Score of `t` for `q`; 0 means no match. Higher is better. `match`, when given, says how it matched. */
export function scoreTarget(q: NameQuery, t: NameTarget, match?: LexicalMatch): number {
  const s = lexicalScoreTarget(q, t, match);
  return s > 0 ? s : fuzzyScoreTarget(q, t);
}

/** Convenience for one-off scoring: `fuzzyScore('cfg', 'config.ts', 'src/config.ts')`. */
export function fuzzyScore(query: string, name: string, rel: string, isDir = false): number {
  const q = prepareNameQuery(query);
  if (!q) return 0;
  const r = rel.replace(/\\/g, '/');
  const t = nameTarget(r.endsWith(name) ? r : name, isDir);
  return scoreTarget(q, t);
}
