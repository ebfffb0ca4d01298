import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentTree } from '../src/tool/agent-tree.js';
import { AGENT_TREE_RULES, surveyTree, TreeAdmission, treeWalkOptions } from '../src/tool/tree-view.js';
import { TempTrees } from './fixtures/temp-trees.js';

const trees = new TempTrees('trawl-agent-tree-');
afterAll(() => trees.remove());

describe('agentTree: the agent tree view with its rules bound, for the MCP tools', () => {
  const root = trees.tree(['src/a.ts', 'node_modules/x/1.js', 'gen/g.ts', '.config/c.json', 'app.log']);
  fs.writeFileSync(path.join(root, '.gitignore'), 'gen/\n*.log\n');

  it("judges and surveys a tree as search's rules do: ignore files honoured, dot entries in, node_modules out", () => {
    const admission = agentTree.admission(root);
    expect(admission.why(path.join(root, 'node_modules', 'x', '1.js'), false)).toBe('skipped');
    expect(admission.why(path.join(root, 'gen'), true)).toBe('ignored');
    expect(admission.whyEntry(path.join(root, 'app.log'), false)).toBe('ignored');
    expect(admission.why(path.join(root, '.config', 'c.json'), false)).toBeNull();
    const survey = agentTree.survey({ cwd: root, roots: [root] });
    expect(survey).toEqual(surveyTree({ cwd: root, roots: [root], rules: AGENT_TREE_RULES }));
    expect(agentTree.describe(survey, 'searched', 'Name one.')).toBe(
      'Not searched: gen/ (ignored by an ignore file, 1 file), node_modules/ (skipped, 1 file); 1 file left out by ignore rules. Name one.',
    );
  });

  it('gives the walk options and counts as the tree view does under the agent rules', () => {
    expect(agentTree.walkOptions).toEqual(treeWalkOptions(AGENT_TREE_RULES));
    expect(Object.isFrozen(agentTree.walkOptions)).toBe(true);
    const view = new TreeAdmission(root, AGENT_TREE_RULES);
    const entries = ['node_modules', 'gen', 'app.log'].map((n) => {
      const abs = path.join(root, n);
      const isDir = fs.statSync(abs).isDirectory();
      return { abs, isDir, reason: view.whyEntry(abs, isDir)! };
    });
    expect(agentTree.count(entries, { cwd: root })).toEqual({
      unentered: [
        { path: 'node_modules/', reason: 'skipped', files: 1, filesExact: true },
        { path: 'gen/', reason: 'ignored', files: 1, filesExact: true },
      ],
      prunedFiles: 1,
      complete: true,
    });
  });
});
