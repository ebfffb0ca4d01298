/**
 * The attachment wire format, both ways. The display text a person typed keeps its `@rel` tokens; the text an agent
 * receives has each token rewritten in place to a marker and an absolute path, indexed into `meta`:
 *
 *   `[attached_file N] /abs/file`  → meta.files[N-1]  (a file: the server hands the agent its text)
 *   `[attached_dir N] /abs/dir`    → meta.dirs[N-1]   (a folder: a path only; the agent explores it itself)
 *
 * N is 1-based in order of first appearance, per kind; a repeated token gets the same N. Paths are inserted
 * literally (`$1` or `$&` in a folder name survive). `resolveDirSegment` turns markers back into `@label/` tokens,
 * losslessly for paths with spaces because the path is read from `meta`, not up to the next space.
 */

import type { DirRef, FileRef, MessageMeta } from 'trawl/wire';
import { isDirRel, type Mention, mentionToken, parseMentions } from './mentions.js';
import { buildFileLabels, dirFullPath } from './paths.js';

export type { DirRef, FileRef, MessageMeta };

/** A file the picker staged: the rel its token carries and the absolute path it stands for. */
export interface PickedFile {
  rel: string;
  path: string;
}

function basename(path: string): string {
  const parts = path.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/**
 * The staged references of a composer text: every folder token, and every file token whose rel was picked. A
 * hand-typed `@name` that no pick recorded is text (it could be a person); a hand-typed `@dir/` is a folder.
 */
export function stagedRefs(
  text: string,
  project: string,
  picked: readonly PickedFile[],
): { files: (PickedFile & { mention: Mention })[]; dirs: { rel: string; path: string }[] } {
  const byRel = new Map(picked.map((p) => [p.rel, p.path]));
  const files: (PickedFile & { mention: Mention })[] = [];
  const dirs: { rel: string; path: string }[] = [];
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  for (const m of parseMentions(text)) {
    if (m.kind === 'dir') {
      if (seenDirs.has(m.rel)) continue;
      seenDirs.add(m.rel);
      dirs.push({ rel: m.rel, path: dirFullPath(m.rel, project) });
    } else {
      const path = byRel.get(m.rel);
      if (path === undefined || seenFiles.has(m.rel)) continue;
      seenFiles.add(m.rel);
      files.push({ rel: m.rel, path, mention: m });
    }
  }
  return { files, dirs };
}

/**
 * The wire text and meta for a display text: staged file tokens become `[attached_file N] /abs`, folder tokens
 * `[attached_dir N] /abs`; wrappers, `:line` and punctuation around a token stay where they were.
 */
export function buildWire(
  text: string,
  project: string,
  picked: readonly PickedFile[],
): { wire: string; meta: MessageMeta } {
  const { files, dirs } = stagedRefs(text, project, picked);
  const fileIndex = new Map(files.map((f, i) => [f.rel, i + 1]));
  const dirIndex = new Map(dirs.map((d, i) => [d.rel, i + 1]));
  let wire = '';
  let at = 0;
  for (const m of parseMentions(text)) {
    let marker: string | undefined;
    if (m.kind === 'dir') {
      const n = dirIndex.get(m.rel);
      if (n !== undefined) marker = `[attached_dir ${n}] ${dirs[n - 1]!.path}`;
    } else {
      const n = fileIndex.get(m.rel);
      if (n !== undefined) marker = `[attached_file ${n}] ${files[n - 1]!.path}`;
    }
    if (marker === undefined) continue;
    wire += text.slice(at, m.start) + marker;
    at = m.end;
  }
  wire += text.slice(at);
  const meta: MessageMeta = {};
  if (files.length > 0) meta.files = files.map((f) => ({ path: f.path, name: basename(f.path) }));
  if (dirs.length > 0) {
    const labels = buildFileLabels(dirs.map((d) => d.path));
    meta.dirs = dirs.map((d, i) => ({ path: d.path, label: labels[i]! }));
  }
  return { wire, meta };
}

/** The folder half of `buildWire` alone: `@rel/` → `[attached_dir N] /abs`, and the ordered absolute paths. */
export function serializeDirTokens(raw: string, project: string): { text: string; dirs: string[] } {
  const { wire, meta } = buildWire(raw, project, []);
  return { text: wire, dirs: (meta.dirs ?? []).map((d) => d.path) };
}

/**
 * `meta.dirs` (or `meta.files`) as paths, validated: a member that is neither a string nor an object with a string
 * `path` becomes `""` IN PLACE, so index N still lines up with marker N (the study trusted the shape).
 * A missing or non-array value yields null, and the caller falls back to scanning markers.
 */
export function metaPaths(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.map((v) => {
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object' && typeof (v as { path?: unknown }).path === 'string') {
      return (v as { path: string }).path;
    }
    return '';
  });
}

const DIR_MARKER_SCAN_RE = /\[attached_dir \d+\] (\S+)/g;
const DIR_MARKER_RE = /\[attached_dir (\d+)\][^\S\n]+/g;

/** The ordered folder paths of a stored message: `meta.dirs` when present, else scanned from markers (lossy). */
export function parseDirs(content: string, meta: unknown): string[] {
  const fromMeta = metaPaths((meta as MessageMeta | null | undefined)?.dirs);
  if (fromMeta) return fromMeta;
  return [...content.matchAll(DIR_MARKER_SCAN_RE)].map((m) => m[1] ?? '');
}

/**
 * Markers back to `@label/` tokens. Returns the display text and a map `label/` → full path. A marker whose N
 * indexes a path the text really continues with consumes exactly that path (spaces included); otherwise the path
 * is read up to the next whitespace. Fresh display text (tokens, no markers) maps each `@rel/` to the meta path it
 * names.
 */
export function resolveDirSegment(
  content: string,
  orderedDirs: readonly string[],
): { display: string; dirMentionMap: Map<string, string> } {
  const map = new Map<string, string>();
  if (orderedDirs.length === 0 && !content.includes('[attached_dir '))
    return { display: content, dirMentionMap: map };
  const labels = buildFileLabels(orderedDirs.map((d) => d.replace(/\\/g, '/')));
  let display = '';
  let at = 0;
  for (const m of content.matchAll(DIR_MARKER_RE)) {
    const n = Number(m[1]);
    const pathAt = (m.index ?? 0) + m[0].length;
    const known = n >= 1 && n <= orderedDirs.length ? orderedDirs[n - 1]! : '';
    let path: string;
    let label: string;
    if (known !== '' && content.startsWith(known, pathAt)) {
      path = known;
      label = labels[n - 1]!;
    } else {
      path = /^\S*/.exec(content.slice(pathAt))?.[0] ?? '';
      const segs = path.split(/[\\/]/).filter((s) => s !== '');
      label = segs[segs.length - 1] ?? path;
    }
    display += content.slice(at, m.index) + (mentionToken(`${label}/`) ?? `@${label}/`);
    map.set(`${label}/`, path);
    at = pathAt + path.length;
  }
  display += content.slice(at);
  for (const m of parseMentions(display)) {
    if (m.kind !== 'dir' || map.has(m.rel)) continue;
    const rel = m.rel.replace(/[\\/]+$/, '');
    const hit = orderedDirs.find((d) => {
      const t = d.replace(/[\\/]+$/, '');
      return t !== '' && (t === rel || t.endsWith(`/${rel}`) || t.endsWith(`\\${rel}`));
    });
    if (hit !== undefined) map.set(m.rel, hit);
  }
  return { display, dirMentionMap: map };
}

/** A piece of a rendered message: plain text, or a reference that renders as a chip. */
export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'dir' | 'file'; token: string; rel: string; path: string; line?: number };

/**
 * A stored user message (its display text and meta) as text and chip segments. Each token is matched to the meta
 * path it was sent as: the path `dirFullPath(rel, project)` gives, else the one that ends with the rel. A token the
 * meta does not know stays text, so a plain `@name` never becomes a chip.
 */
export function segmentMessage(text: string, meta: unknown, project: string): Segment[] {
  const dirs = metaPaths((meta as MessageMeta | null | undefined)?.dirs) ?? [];
  const files = metaPaths((meta as MessageMeta | null | undefined)?.files) ?? [];
  const find = (paths: string[], rel: string): string | undefined => {
    const trimmed = rel.replace(/[\\/]+$/, '');
    const full = dirFullPath(rel, project);
    return (
      paths.find((p) => p !== '' && p === full) ??
      paths.find(
        (p) => p !== '' && (p === trimmed || p.endsWith(`/${trimmed}`) || p.endsWith(`\\${trimmed}`)),
      )
    );
  };
  const out: Segment[] = [];
  let at = 0;
  for (const m of parseMentions(text)) {
    const path = find(m.kind === 'dir' ? dirs : files, m.rel);
    if (path === undefined) continue;
    if (m.start > at) out.push({ kind: 'text', text: text.slice(at, m.start) });
    const seg: Segment = { kind: m.kind, token: text.slice(m.start, m.end), rel: m.rel, path };
    if (m.line !== undefined) seg.line = m.line;
    out.push(seg);
    at = m.end;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

/** Something to attach from outside the textarea (the Files rail): a file or a folder, relative to the project. */
export interface Attachment {
  kind: 'file' | 'dir';
  rel: string;
  /** A file's lines (the viewer's "Add lines N–M"): the token carries them as `:N-M`, and so does the wire. */
  lines?: { from: number; to: number };
}

/** The `:N` / `:N-M` suffix of an attachment's lines, or ''. */
const linesSuffix = (a: Attachment) =>
  a.kind === 'file' && a.lines
    ? a.lines.to > a.lines.from
      ? `:${a.lines.from}-${a.lines.to}`
      : `:${a.lines.from}`
    : '';

/**
 * The token an attachment is written as — `@rel` for a file, `@rel/` for a folder (a trailing `\` kept), quoted
 * (`@"my notes.md"`) when the bare form would read back as something else — or null for a name no token carries
 * (a line break in it).
 */
export function attachmentToken(a: Attachment): string | null {
  const token = mentionToken(a.kind === 'dir' && !isDirRel(a.rel) ? `${a.rel}/` : a.rel);
  return token === null ? null : token + linesSuffix(a);
}

/**
 * Inserts the tokens of `items` at `caret` (clamped; appended when null), padded with a space before unless
 * whitespace is already there, and one after. An item whose token is already in the text (exact string, same
 * kind) or repeated in the batch is skipped; one that cannot be a token is listed in `refused`. `changed` is false
 * when nothing was inserted. Used by the Files rail's "Add to message".
 */
export function spliceAttachments(
  value: string,
  caret: number | null,
  items: readonly Attachment[],
): { value: string; caret: number; changed: boolean; refused: string[] } {
  const key = (kind: string, rel: string, from?: number, to?: number) =>
    `${kind}:${rel}${from !== undefined ? `:${from}-${to ?? from}` : ''}`;
  const present = new Set(parseMentions(value).map((m) => key(m.kind, m.rel, m.line, m.endLine)));
  const tokens: string[] = [];
  const refused: string[] = [];
  for (const item of items) {
    const token = attachmentToken(item);
    if (token === null) {
      refused.push(item.rel);
      continue;
    }
    const k = key(
      item.kind,
      item.kind === 'dir' && !isDirRel(item.rel) ? `${item.rel}/` : item.rel,
      item.lines?.from,
      item.lines?.to,
    );
    if (present.has(k)) continue;
    present.add(k);
    tokens.push(token);
  }
  const at = caret === null ? value.length : Math.max(0, Math.min(caret, value.length));
  if (tokens.length === 0) return { value, caret: at, changed: false, refused };
  const before = value.slice(0, at);
  const pad = before === '' || /\s$/.test(before) ? '' : ' ';
  const run = `${pad}${tokens.join(' ')} `;
  return { value: before + run + value.slice(at), caret: at + run.length, changed: true, refused };
}
