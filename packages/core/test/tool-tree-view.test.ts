import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_TREE_RULES, describeSurvey, surveyTree, TreeAdmission } from '../src/tool/tree-view.js';
import { TempTrees } from './fixtures/temp-trees.js';

const trees = new TempTrees('trawl-tree-view-');
afterAll(() => trees.remove());

describe("the agent's tree view", () => {
  it('names each directory its rules do not enter with its file count, and counts files left out', () => {
    const root = trees.tree([
      'src/a.ts',
      'node_modules/x/1.js',
      'node_modules/x/2.js',
      'gen/g.ts',
      'app.log',
      '.config/c.json',
    ]);
    fs.writeFileSync(path.join(root, '.gitignore'), 'gen/\n*.log\n');
    const survey = surveyTree({ cwd: root, roots: [root], rules: AGENT_TREE_RULES });
    expect(survey).toEqual({
      unentered: [
        { path: 'gen/', reason: 'ignored', files: 1, filesExact: true },
        { path: 'node_modules/', reason: 'skipped', files: 2, filesExact: true },
      ],
      prunedFiles: 1,
      complete: true,
    });
    expect(describeSurvey(survey, 'searched', 'Name one.')).toBe(
      'Not searched: gen/ (ignored by an ignore file, 1 file), node_modules/ (skipped, 2 files); 1 file left out by ignore rules. Name one.',
    );
    // With hidden off, a dot directory is named as one; an empty directory left out is not named at all.
    fs.mkdirSync(path.join(root, 'node_modules', 'empty'));
    const noDots = surveyTree({ cwd: root, roots: [root], rules: { ...AGENT_TREE_RULES, hidden: false } });
    expect(noDots.unentered.map((d) => `${d.path} ${d.reason}`)).toEqual([
      '.config/ hidden',
      'gen/ ignored',
      'node_modules/ skipped',
    ]);
  });

  it('a count past its budget is a floor, and the words say so', () => {
    const files = Array.from({ length: 30 }, (_, i) => `node_modules/p/f${i}.js`);
    const root = trees.tree(['a.ts', ...files]);
    const survey = surveyTree({ cwd: root, roots: [root], rules: AGENT_TREE_RULES, maxCounted: 10 });
    expect(survey.complete).toBe(false);
    expect(survey.unentered[0]).toMatchObject({ path: 'node_modules/', filesExact: false });
    expect(survey.unentered[0]!.files).toBeLessThan(30);
    expect(describeSurvey(survey, 'searched', '')).toMatch(
      /node_modules\/ \(skipped, at least \d+ files\).*the check stopped at its budget/,
    );
  });

  it('what the caller excludes (the fence, !globs) is never named', () => {
    const root = trees.tree(['a.ts', 'node_modules/x.js', 'gen/g.ts']);
    fs.writeFileSync(path.join(root, '.gitignore'), 'gen/\n');
    const survey = surveyTree({
      cwd: root,
      roots: [root],
      rules: AGENT_TREE_RULES,
      exclude: (abs) => abs.endsWith('/gen'),
    });
    expect(survey.unentered.map((d) => d.path)).toEqual(['node_modules/']);
  });

  it('admission judges a path as the walk would on its way there', () => {
    const root = trees.tree(['src/a.ts', 'gen/g.ts', 'node_modules/x/y.js', '.env', 'src/.cache/z']);
    fs.writeFileSync(path.join(root, '.gitignore'), 'gen/\n');
    const view = new TreeAdmission(root, AGENT_TREE_RULES);
    expect(view.why(path.join(root, 'src/a.ts'), false)).toBeNull();
    expect(view.why(path.join(root, '.env'), false)).toBeNull();
    expect(view.why(path.join(root, 'gen/g.ts'), false)).toBe('ignored');
    expect(view.why(path.join(root, 'node_modules/x/y.js'), false)).toBe('skipped');
    // A directory named as the place to look is judged by its entries only.
    expect(view.whyEntry(path.join(root, 'node_modules/x'), true)).toBeNull();
    const noDots = new TreeAdmission(root, { ...AGENT_TREE_RULES, hidden: false });
    expect(noDots.why(path.join(root, 'src/.cache/z'), false)).toBe('hidden');
  });
});
