import { describe, expect, it } from 'vitest';
import { splitShellWords } from '../src/conversations/shell-words.js';

describe('splitShellWords (--agent): words as a shell splits them, nothing expanded', () => {
  it.each([
    ['claude -p', ['claude', '-p']],
    ['  node   agent.mjs  ', ['node', 'agent.mjs']],
    [`llm -m 'gpt 5' --system "be \\"brief\\""`, ['llm', '-m', 'gpt 5', '--system', 'be "brief"']],
    ['a\\ b c', ['a b', 'c']],
    [`echo $HOME '$(id)' "\`id\`" ; rm -rf /`, ['echo', '$HOME', '$(id)', '`id`', ';', 'rm', '-rf', '/']],
    [`x''y "" z`, ['xy', '', 'z']],
    [`"a\\nb"`, ['a\\nb']],
  ])('%s', (line, argv) => {
    expect(splitShellWords(line)).toEqual({ argv });
  });

  it('refuses an unterminated quote or an empty command', () => {
    expect(splitShellWords(`a 'b`)).toEqual({ error: 'unterminated single quote in --agent' });
    expect(splitShellWords(`a "b`)).toEqual({ error: 'unterminated double quote in --agent' });
    expect(splitShellWords('   ')).toEqual({ error: '--agent needs a command' });
  });
});
