/**
 * The query side of the name scorer: what was typed, normalised once per search, and its other readings.
 */

import { charMask, compactOf, lowerSameLength } from './target.js';

/** A query, prepared once per search. */
export interface NameQuery {
  /** Normalised: trimmed, lowercased, `\` → `/`, no leading `./` or `/`, no trailing `/`. */
  readonly text: string;
  /** The part scored against the name: the whole text, or its last `/` segment. */
  readonly name: string;
  /** `name` without separators. */
  readonly nameCompact: string;
  /** The directory part of a `/` query (`''` for a plain query). */
  readonly dirSegments: readonly string[];
  /** The query ended in `/`: a directory is meant. */
  readonly wantsDir: boolean;
  readonly mask: number;
  readonly nameMask: number;
  /** Other readings of a query with spaces (see {@link prepareNameQuery}); empty otherwise. */
  readonly variants: readonly NameQuery[];
  /**
   * This reading's directory-segment quality per directory key ({@link NameTarget.dirKey}), filled as candidates
   * are scored: every entry of a directory shares it. A prepared query serves one candidate set (one search).
   */
  readonly dirQuality: Map<number, number>;
}

/**
 * Prepares a query; `null` when nothing is left to match. (The two-character minimum is the surface's rule.)
 * A query with spaces has three readings and a candidate takes the best: the words joined (`tcp input` →
 * `tcpinput`, also the fuzzy reading), the words as path segments (`ext4 inode` → `ext4/inode`), and the literal
 * text (names with spaces).
 */
export function prepareNameQuery(raw: string): NameQuery | null {
  let text = lowerSameLength(raw.trim()).replace(/\\/g, '/').replace(/\s+/g, ' ');
  text = text.replace(/ ?\/ ?/g, '/').replace(/\/{2,}/g, '/');
  while (text.startsWith('./')) text = text.slice(2);
  text = text.replace(/^\/+/, '');
  const wantsDir = text.endsWith('/');
  text = text.replace(/\/+$/, '');
  if (text.length === 0) return null;
  if (!text.includes(' ')) return singleReading(text, wantsDir, []);
  const words = text.split(' ');
  const literal = singleReading(text, wantsDir, []);
  const asPath = singleReading(words.join('/'), wantsDir, []);
  const joined = singleReading(words.join(''), wantsDir, [literal, asPath]);
  return { ...joined, nameMask: joined.nameMask & literal.nameMask & asPath.nameMask };
}

function singleReading(text: string, wantsDir: boolean, variants: NameQuery[]): NameQuery {
  const cut = text.lastIndexOf('/');
  const name = cut < 0 ? text : text.slice(cut + 1);
  return {
    text,
    name,
    nameCompact: compactOf(name),
    dirSegments: cut < 0 ? [] : text.slice(0, cut).split('/'),
    wantsDir,
    mask: charMask(text),
    nameMask: charMask(name),
    variants,
    dirQuality: new Map(),
  };
}
