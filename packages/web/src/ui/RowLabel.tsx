/**
 * How a file or folder row reads everywhere (the picker, the Files rail's hits): the name first, the directory dim
 * after it and cut from its start (`…/v4/mini/`, the end of a path is what tells two `schemas.js` apart), and the
 * characters the search matched marked, from the offsets the name search returned.
 */
import { Fragment } from 'react';
import { makeRelative } from '../tokens/paths.js';
import { Visible } from './Visible.js';

const CUT = '…/';

/**
 * `dir` (ending in `/`) cut to at most `max` characters by dropping leading segments, with `…/` in their place; a
 * last segment longer than `max` is kept whole (the CSS cuts it). `dropped` is how many characters of `dir` went.
 */
export function cutDirStart(dir: string, max: number): { text: string; dropped: number } {
  let dropped = 0;
  while (dir.length - dropped + (dropped > 0 ? CUT.length : 0) > max) {
    const next = dir.indexOf('/', dropped) + 1;
    if (next <= 0 || next >= dir.length) break;
    dropped = next;
  }
  return dropped === 0 ? { text: dir, dropped } : { text: CUT + dir.slice(dropped), dropped };
}

/**
 * `text` with the characters at `marks` (offsets into `text`) wrapped in `<mark>`, runs joined; hidden characters
 * (direction controls, …) shown as their code points (ui/Visible.tsx).
 */
export function Marked({ text, marks }: { text: string; marks: readonly number[] }) {
  const set = new Set(marks.filter((i) => i >= 0 && i < text.length));
  if (set.size === 0) return <Visible text={text} />;
  const out: React.ReactNode[] = [];
  let i = 0;
  while (i < text.length) {
    const on = set.has(i);
    let j = i + 1;
    while (j < text.length && set.has(j) === on) j++;
    const run = <Visible text={text.slice(i, j)} />;
    out.push(on ? <mark key={i}>{run}</mark> : <Fragment key={i}>{run}</Fragment>);
    i = j;
  }
  return <>{out}</>;
}

export interface RowLabelProps {
  /** The row's absolute path (what `positions` index into). */
  path: string;
  name: string;
  kind: 'file' | 'dir';
  /** The searched root: the directory is shown relative to it. */
  root: string;
  positions?: readonly number[] | undefined;
  /** Characters of directory shown before the start is cut. */
  dirChars?: number;
  /** An extra class for the name (the picker's rows are found by `.picker-name`). */
  nameClass?: string;
}

/** The name (marked), then its directory relative to the root (dim, cut from the start, marked where it shows). */
export function RowLabel({
  path,
  name,
  kind,
  root,
  positions = [],
  dirChars = 40,
  nameClass,
}: RowLabelProps) {
  const rel = makeRelative(path, root);
  const nameAt = path.length - name.length;
  const relAt = path.length - rel.length;
  const dir = rel.length > name.length ? rel.slice(0, rel.length - name.length) : '';
  const cut = cutDirStart(dir, dirChars);
  // A path offset as an offset into the shown directory text (the `…/` of a cut stands for nothing).
  const lead = cut.dropped > 0 ? CUT.length : 0;
  const dirMarks = positions
    .filter((p) => p >= relAt + cut.dropped && p < nameAt)
    .map((p) => p - relAt - cut.dropped + lead);
  return (
    <>
      <span className={nameClass ? `row-name ${nameClass}` : 'row-name'}>
        <Marked text={name} marks={positions.map((p) => p - nameAt)} />
        {kind === 'dir' ? '/' : ''}
      </span>
      {dir !== '' ? (
        <span className="row-dir" data-dir={dir}>
          <bdi>
            <Marked text={cut.text} marks={dirMarks} />
          </bdi>
        </span>
      ) : null}
    </>
  );
}
