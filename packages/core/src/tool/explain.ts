import { walkOptionsOf } from '../engine/search.js';
import { listNames } from './compose.js';
import { findHiddenMatches, globMatchesAnyFile, type RunContext } from './execute.js';
import type { Group } from './plan.js';
import {
  describeSurvey,
  surveyFromPruned,
  surveyTree,
  type TreeSurvey,
  type UnenteredDir,
} from './tree-view.js';
import { SKIP_DIRS } from './types.js';

/**
 * Why a search that walked found nothing, when the answer is not simply "no file matches": a glob that
 * matches no file at all, or matching files that ignore rules or skipped directories hid (issue 11
 * item 4). Each becomes a note after "No matches found", with how to include what was hidden.
 */
export async function explainEmpty(
  groups: readonly Group[],
  ctx: RunContext,
  asked: { gitignore: boolean; hidden: boolean },
): Promise<void> {
  const { gitignore, hidden: withHidden } = asked;
  const walks = groups.some(
    (g) => g.type === 'glob' || (g.type === 'engine' && g.roots.some((r) => r.walks)),
  );
  if (!walks) return;
  for (const g of groups) {
    if (g.type === 'glob' && !globMatchesAnyFile(g, ctx)) {
      ctx.notes.add(`No file matches ${listNames(g.inputs)}${g.inputs.length > 1 ? ' (any of them)' : ''}.`);
    }
  }
  const hidden = await findHiddenMatches(groups, ctx);
  if (hidden.total === 0) return;
  const inSkipped = (p: string) => p.split('/').some((seg) => SKIP_DIRS.includes(seg));
  const isDot = (p: string) => p.split('/').some((seg) => seg.startsWith('.') && seg !== '.' && seg !== '..');
  const skipped = hidden.files.filter(inSkipped);
  const dotted = withHidden ? [] : hidden.files.filter((p) => !inSkipped(p) && isDot(p));
  const ignored = hidden.files.filter((p) => !inSkipped(p) && !dotted.includes(p));
  const count = `${hidden.exact ? '' : 'at least '}${hidden.total} file${hidden.total === 1 ? '' : 's'}`;
  const how: string[] = [];
  // gitignore: false includes ignored files, never the skipped directories (those are named to be searched).
  if (gitignore && ignored.length > 0) how.push('pass gitignore: false to include ignored files');
  if (dotted.length > 0) how.push('pass hidden: true to include dot files');
  if (skipped.length > 0) {
    how.push(
      `name a ${SKIP_DIRS.filter((d) => skipped.some((p) => p.split('/').includes(d))).join(' or ')} directory in paths`,
    );
  }
  const what = [
    ...(gitignore ? ['ignore rules (.gitignore, .ignore)'] : []),
    ...(withHidden ? [] : ['hidden: false']),
    'skipped directories',
  ].join(' or ');
  ctx.notes.add(
    `${count} hidden by ${what} match${hidden.total === 1 ? 'es' : ''}: ${listNames(hidden.files)}${hidden.total > hidden.files.length ? ', …' : ''}.${how.length > 0 ? ` To search ${hidden.total === 1 ? 'it' : 'them'}, ${how.join('; or ')}.` : ''}`,
  );
}

/**
 * What the rules left out under the walked paths (directories not entered, with their file counts, and files
 * left out), said in every answer that walked, not only in empty ones: a match may sit there. Returns the
 * directories for the details.
 */
export async function noteUnentered(
  groups: readonly Group[],
  ctx: RunContext,
  asked: { gitignore: boolean; hidden: boolean },
): Promise<UnenteredDir[]> {
  // `engineRoots`: every root of an engine group, as its search asked the index for the walk (the same kept list).
  const walked: Array<{ roots: string[]; skipDirs: ReadonlySet<string>; engineRoots?: string[] }> = [];
  for (const g of groups) {
    if (g.type === 'engine') {
      const roots = g.roots.filter((r) => r.walks).map((r) => r.abs);
      const skipDirs = ctx.skipDirs ?? new Set(SKIP_DIRS);
      if (roots.length > 0) walked.push({ roots, skipDirs, engineRoots: g.roots.map((r) => r.abs) });
    } else if (g.type === 'glob') {
      walked.push({ roots: [g.baseAbs], skipDirs: ctx.skipDirs ?? g.skipDirs });
    }
  }
  if (walked.length === 0) return [];
  const survey: TreeSurvey = { unentered: [], prunedFiles: 0, complete: true };
  for (const w of walked) {
    const req = {
      cwd: ctx.cwd,
      roots: w.roots,
      rules: { ...asked, skipDirs: w.skipDirs },
      ...(ctx.baseRequest.exclude ? { exclude: ctx.baseRequest.exclude } : {}),
      deadline: ctx.deadline,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    };
    // The index's kept walk of the search already knows what its rules left out: no walk of the tree per call.
    const index = ctx.baseRequest.index;
    const kept =
      w.engineRoots && index?.walkPruned
        ? await index.walkPruned({
            walk: walkOptionsOf({ ...ctx.baseRequest, skipDirs: w.skipDirs }, w.engineRoots, ctx.cwd),
            deadline: ctx.deadline,
            ...(ctx.signal ? { signal: ctx.signal } : {}),
          })
        : null;
    const one = (kept && surveyFromPruned(kept, req)) ?? surveyTree(req);
    for (const d of one.unentered)
      if (!survey.unentered.some((s) => s.path === d.path)) survey.unentered.push(d);
    survey.prunedFiles += one.prunedFiles;
    survey.complete &&= one.complete;
  }
  const how = [
    'To search one, name it in paths',
    ...(asked.gitignore ? ['gitignore: false includes what ignore files leave out'] : []),
    ...(asked.hidden ? [] : ['hidden: true includes dot files']),
  ].join('; ');
  const note = describeSurvey(survey, 'searched', `${how}.`);
  if (note) ctx.notes.add(note);
  return survey.unentered;
}
