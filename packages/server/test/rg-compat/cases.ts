import { COLOR_CASES } from './colors.js';
import { FEATURE_CASES } from './features.js';
import { SHERLOCK, sherlockNul, UTF16_NUL, UTF16_SHERLOCK } from './fixtures.js';
import { FLAG_CASES } from './flags.js';
import { MAX_COLUMNS_CASES } from './max-columns.js';
import { MESSAGE_CASES } from './messages.js';
import { REGRESSION_CASES } from './regressions.js';
import { TERMINATOR_CASES } from './terminators.js';

/** One ported test: the fixture tree, the arguments, and what ripgrep 15 prints and exits with. */
export interface CompatCase {
  /** The ripgrep test it ports (tests/FILE.rs:NAME), or the trawl issue it pins. */
  from: string;
  files: Record<string, string | Buffer>;
  /** Symbolic links to make: path → target (as written in the link). */
  links?: Record<string, string>;
  /** Make the tree a git repository (an empty .git directory), for .gitignore. */
  git?: boolean;
  args: string[];
  /** Where ripgrep runs, below the tree (ripgrep's `current_dir`); absent: the tree's top. */
  cwd?: string;
  /** What standard input holds (a pipe); absent: it is /dev/null, which ripgrep does not read. */
  stdin?: string;
  stdout: string;
  code: number;
  /**
   * What ripgrep 15 prints on stderr, when the case is about its messages: trawl must print the same (after
   * `deliberateStderr`, the differences README lists), and ripgrep still must. Absent: stderr is not compared.
   */
  stderr?: string;
}

/**
 * ripgrep's messages as trawl gives them, on purpose (README, "Where trawl differs"): errors are one line,
 * so ripgrep's extra advice lines are not printed.
 */
export function deliberateStderr(rgStderr: string): string {
  return rgStderr.replace(
    /\nIn some shells on Windows '\/' is automatically expanded\. Use '\/\/' instead\.\n/g,
    '\n',
  );
}

/**
 * Cases of ripgrep's integration tests (tests/misc.rs, feature.rs, multiline.rs, binary.rs, regression.rs,
 * json.rs), rebuilt as fixtures and arguments, with the output ripgrep 15 gives (the suite checks that it
 * still does). Several files are searched with --sort path where the test sorted: ripgrep's own order
 * depends on its threads.
 */
export const CASES: CompatCase[] = [
  {
    from: 'misc.rs:single_file',
    files: { sherlock: SHERLOCK },
    args: ['Sherlock', 'sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the Sherlock\nbe, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:dir',
    files: { sherlock: SHERLOCK },
    args: ['Sherlock'],
    stdout:
      'sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:line_numbers',
    files: { sherlock: SHERLOCK },
    args: ['-n', 'Sherlock', 'sherlock'],
    stdout:
      '1:For the Doctor Watsons of this world, as opposed to the Sherlock\n3:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:columns',
    files: { sherlock: SHERLOCK },
    args: ['--column', 'Sherlock', 'sherlock'],
    stdout:
      '1:57:For the Doctor Watsons of this world, as opposed to the Sherlock\n3:49:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:with_filename',
    files: { sherlock: SHERLOCK },
    args: ['-H', 'Sherlock', 'sherlock'],
    stdout:
      'sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:with_heading',
    files: { sherlock: SHERLOCK },
    args: ['--heading', '-H', 'Sherlock', 'sherlock'],
    stdout:
      'sherlock\nFor the Doctor Watsons of this world, as opposed to the Sherlock\nbe, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:inverted',
    files: { sherlock: SHERLOCK },
    args: ['-v', 'Sherlock', 'sherlock'],
    stdout:
      'Holmeses, success in the province of detective work must always\ncan extract a clew from a wisp of straw or a flake of cigar ash;\nbut Doctor Watson has to have it taken out for him and dusted,\nand exhibited clearly, with a label attached.\n',
    code: 0,
  },
  {
    from: 'misc.rs:inverted_line_numbers',
    files: { sherlock: SHERLOCK },
    args: ['-n', '-v', 'Sherlock', 'sherlock'],
    stdout:
      '2:Holmeses, success in the province of detective work must always\n4:can extract a clew from a wisp of straw or a flake of cigar ash;\n5:but Doctor Watson has to have it taken out for him and dusted,\n6:and exhibited clearly, with a label attached.\n',
    code: 0,
  },
  {
    from: 'misc.rs:case_insensitive',
    files: { sherlock: SHERLOCK },
    args: ['-i', 'sherlock', 'sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the Sherlock\nbe, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:word',
    files: { sherlock: SHERLOCK },
    args: ['-w', 'as', 'sherlock'],
    stdout: 'For the Doctor Watsons of this world, as opposed to the Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:word_period',
    files: { haystack: 'a.c.d\n' },
    args: ['-ow', '.', 'haystack'],
    stdout: 'a\nc\nd\n',
    code: 0,
  },
  {
    from: 'misc.rs:line',
    files: { sherlock: SHERLOCK },
    args: ['-x', 'Watson|and exhibited clearly, with a label attached.', 'sherlock'],
    stdout: 'and exhibited clearly, with a label attached.\n',
    code: 0,
  },
  {
    from: 'misc.rs:literal',
    files: { file: 'blib\n()\nblab\n' },
    args: ['-F', '()', 'file'],
    stdout: '()\n',
    code: 0,
  },
  {
    from: 'misc.rs:quiet',
    files: { sherlock: SHERLOCK },
    args: ['-q', 'Sherlock', 'sherlock'],
    stdout: '',
    code: 0,
  },
  {
    from: 'misc.rs:replace',
    files: { sherlock: SHERLOCK },
    args: ['-r', 'FooBar', 'Sherlock', 'sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the FooBar\nbe, to a very large extent, the result of luck. FooBar Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:replace_groups',
    files: { sherlock: SHERLOCK },
    args: ['-r', '$2, $1', '([A-Z][a-z]+) ([A-Z][a-z]+)', 'sherlock'],
    stdout:
      'For the Watsons, Doctor of this world, as opposed to the Sherlock\nbe, to a very large extent, the result of luck. Holmes, Sherlock\nbut Watson, Doctor has to have it taken out for him and dusted,\n',
    code: 0,
  },
  {
    from: 'misc.rs:replace_named_groups',
    files: { sherlock: SHERLOCK },
    args: ['-r', '$last, $first', '(?P<first>[A-Z][a-z]+) (?P<last>[A-Z][a-z]+)', 'sherlock'],
    stdout:
      'For the Watsons, Doctor of this world, as opposed to the Sherlock\nbe, to a very large extent, the result of luck. Holmes, Sherlock\nbut Watson, Doctor has to have it taken out for him and dusted,\n',
    code: 0,
  },
  {
    from: 'misc.rs:replace_with_only_matching',
    files: { sherlock: SHERLOCK },
    args: ['-o', '-r', '$1', 'of (\\w+)', 'sherlock'],
    stdout: 'this\ndetective\nluck\nstraw\ncigar\n',
    code: 0,
  },
  {
    from: 'misc.rs:file_types',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock', 'file.rs': 'Sherlock' },
    args: ['-t', 'rust', 'Sherlock'],
    stdout: 'file.rs:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:file_types_all',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock' },
    args: ['-t', 'all', 'Sherlock'],
    stdout: 'file.py:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:file_types_negate',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock', 'file.rs': 'Sherlock' },
    args: ['--sort', 'path', '-T', 'rust', 'Sherlock'],
    stdout:
      'file.py:Sherlock\nsherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:file_types_negate_all',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock' },
    args: ['-T', 'all', 'Sherlock'],
    stdout:
      'sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:file_type_clear',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock', 'file.rs': 'Sherlock' },
    args: ['--type-clear', 'rust', '-t', 'rust', 'Sherlock'],
    stdout: '',
    code: 2,
  },
  {
    from: 'misc.rs:file_type_add',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock', 'file.rs': 'Sherlock', 'file.wat': 'Sherlock' },
    args: ['--type-add', 'wat:*.wat', '-t', 'wat', 'Sherlock'],
    stdout: 'file.wat:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:file_type_add_compose',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock', 'file.rs': 'Sherlock', 'file.wat': 'Sherlock' },
    args: [
      '--sort',
      'path',
      '--type-add',
      'wat:*.wat',
      '--type-add',
      'combo:include:wat,py',
      '-t',
      'combo',
      'Sherlock',
    ],
    stdout: 'file.py:Sherlock\nfile.wat:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:glob',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock', 'file.rs': 'Sherlock' },
    args: ['-g', '*.rs', 'Sherlock'],
    stdout: 'file.rs:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:glob_negate',
    files: { sherlock: SHERLOCK, 'file.py': 'Sherlock', 'file.rs': 'Sherlock' },
    args: ['--sort', 'path', '-g', '!*.rs', 'Sherlock'],
    stdout:
      'file.py:Sherlock\nsherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:glob_case_insensitive',
    files: { sherlock: SHERLOCK, 'file.HTML': 'Sherlock' },
    args: ['--iglob', '*.html', 'Sherlock'],
    stdout: 'file.HTML:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:glob_case_sensitive',
    files: { 'file1.HTML': 'Sherlock', 'file2.html': 'Sherlock' },
    args: ['--glob', '*.html', 'Sherlock'],
    stdout: 'file2.html:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:glob_always_case_insensitive',
    files: { sherlock: SHERLOCK, 'file.HTML': 'Sherlock' },
    args: ['--glob-case-insensitive', '--glob', '*.html', 'Sherlock'],
    stdout: 'file.HTML:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:byte_offset_only_matching',
    files: { sherlock: SHERLOCK },
    args: ['-b', '-o', 'Sherlock'],
    stdout: 'sherlock:56:Sherlock\nsherlock:177:Sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:count',
    files: { sherlock: SHERLOCK },
    args: ['--count', 'Sherlock'],
    stdout: 'sherlock:2\n',
    code: 0,
  },
  {
    from: 'misc.rs:count_matches',
    files: { sherlock: SHERLOCK },
    args: ['--count-matches', 'the'],
    stdout: 'sherlock:4\n',
    code: 0,
  },
  {
    from: 'misc.rs:count_matches_inverted',
    files: { sherlock: SHERLOCK },
    args: ['--count-matches', '--invert-match', 'Sherlock'],
    stdout: 'sherlock:4\n',
    code: 0,
  },
  {
    from: 'misc.rs:count_matches_via_only',
    files: { sherlock: SHERLOCK },
    args: ['--count', '--only-matching', 'the'],
    stdout: 'sherlock:4\n',
    code: 0,
  },
  {
    from: 'misc.rs:include_zero',
    files: { sherlock: SHERLOCK },
    args: ['--count', '--include-zero', 'nada'],
    stdout: 'sherlock:0\n',
    code: 1,
  },
  {
    from: 'misc.rs:files_with_matches',
    files: { sherlock: SHERLOCK, file: 'foo' },
    args: ['--files-with-matches', 'Sherlock'],
    stdout: 'sherlock\n',
    code: 0,
  },
  {
    from: 'misc.rs:files_without_match',
    files: { sherlock: SHERLOCK, 'file.py': 'foo' },
    args: ['--files-without-match', 'Sherlock'],
    stdout: 'file.py\n',
    code: 0,
  },
  {
    from: 'misc.rs:after_context',
    files: { sherlock: SHERLOCK },
    args: ['-A', '1', 'Sherlock', 'sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the Sherlock\nHolmeses, success in the province of detective work must always\nbe, to a very large extent, the result of luck. Sherlock Holmes\ncan extract a clew from a wisp of straw or a flake of cigar ash;\n',
    code: 0,
  },
  {
    from: 'misc.rs:after_context_line_numbers',
    files: { sherlock: SHERLOCK },
    args: ['-A', '1', '-n', 'Sherlock', 'sherlock'],
    stdout:
      '1:For the Doctor Watsons of this world, as opposed to the Sherlock\n2-Holmeses, success in the province of detective work must always\n3:be, to a very large extent, the result of luck. Sherlock Holmes\n4-can extract a clew from a wisp of straw or a flake of cigar ash;\n',
    code: 0,
  },
  {
    from: 'misc.rs:before_context',
    files: { sherlock: SHERLOCK },
    args: ['-B', '1', 'Sherlock', 'sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the Sherlock\nHolmeses, success in the province of detective work must always\nbe, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:before_context_line_numbers',
    files: { sherlock: SHERLOCK },
    args: ['-B', '1', '-n', 'Sherlock', 'sherlock'],
    stdout:
      '1:For the Doctor Watsons of this world, as opposed to the Sherlock\n2-Holmeses, success in the province of detective work must always\n3:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:context',
    files: { sherlock: SHERLOCK },
    args: ['-C', '1', 'world|attached', 'sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the Sherlock\nHolmeses, success in the province of detective work must always\n--\nbut Doctor Watson has to have it taken out for him and dusted,\nand exhibited clearly, with a label attached.\n',
    code: 0,
  },
  {
    from: 'misc.rs:context_line_numbers',
    files: { sherlock: SHERLOCK },
    args: ['-C', '1', '-n', 'world|attached', 'sherlock'],
    stdout:
      '1:For the Doctor Watsons of this world, as opposed to the Sherlock\n2-Holmeses, success in the province of detective work must always\n--\n5-but Doctor Watson has to have it taken out for him and dusted,\n6:and exhibited clearly, with a label attached.\n',
    code: 0,
  },
  {
    from: 'misc.rs:max_filesize_parse_no_suffix',
    files: {
      foo: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      bar: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    },
    args: ['--max-filesize', '50', '--files'],
    stdout: 'foo\n',
    code: 0,
  },
  {
    from: 'misc.rs:ignore_hidden',
    files: { '.sherlock': SHERLOCK },
    args: ['Sherlock'],
    stdout: '',
    code: 2,
  },
  {
    from: 'misc.rs:no_ignore_hidden',
    files: { '.sherlock': SHERLOCK },
    args: ['--hidden', 'Sherlock'],
    stdout:
      '.sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\n.sherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:ignore_git',
    files: { '.gitignore': 'sherlock\n', sherlock: SHERLOCK },
    git: true,
    args: ['Sherlock'],
    stdout: '',
    code: 2,
  },
  {
    from: 'misc.rs:ignore_generic',
    files: { '.ignore': 'sherlock\n', sherlock: SHERLOCK },
    args: ['Sherlock'],
    stdout: '',
    code: 2,
  },
  {
    from: 'misc.rs:ignore_ripgrep',
    files: { '.rgignore': 'sherlock\n', sherlock: SHERLOCK },
    args: ['Sherlock'],
    stdout: '',
    code: 2,
  },
  {
    from: 'misc.rs:no_ignore',
    files: { '.ignore': 'sherlock\n', sherlock: SHERLOCK },
    args: ['--no-ignore', 'Sherlock'],
    stdout:
      'sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:unrestricted1',
    files: { '.ignore': 'sherlock\n', sherlock: SHERLOCK },
    args: ['-u', 'Sherlock'],
    stdout:
      'sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:unrestricted2',
    files: { '.sherlock': SHERLOCK },
    args: ['-uu', 'Sherlock'],
    stdout:
      '.sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\n.sherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'misc.rs:unrestricted3',
    files: { hay: 'foo\u0000bar\nfoo\u0000baz\n' },
    args: ['-uuu', 'foo'],
    stdout: 'hay: binary file matches (found "\\0" byte around offset 3)\n',
    code: 0,
  },
  {
    from: 'misc.rs:vimgrep',
    files: { sherlock: SHERLOCK },
    args: ['--vimgrep', 'Sherlock|Watson'],
    stdout:
      'sherlock:1:16:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:1:57:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:3:49:be, to a very large extent, the result of luck. Sherlock Holmes\nsherlock:5:12:but Doctor Watson has to have it taken out for him and dusted,\n',
    code: 0,
  },
  {
    from: 'misc.rs:binary_convert_mmap',
    files: { file: 'foo\u0000bar\nfoo\u0000baz\n' },
    args: ['foo', 'file'],
    stdout: 'binary file matches (found "\\0" byte around offset 3)\n',
    code: 0,
  },
  {
    from: 'misc.rs:binary_quit_mmap',
    files: { file: 'foo\u0000bar\nfoo\u0000baz\n' },
    args: ['foo', '-gfile'],
    stdout: '',
    code: 1,
  },
  {
    from: 'misc.rs:binary_search_mmap',
    files: { file: 'foo\u0000bar\nfoo\u0000baz\n' },
    args: ['-a', 'foo', 'file'],
    stdout: 'foo\u0000bar\nfoo\u0000baz\n',
    code: 0,
  },
  {
    from: 'misc.rs:files',
    files: { file: '', 'dir/file': '' },
    args: ['--files'],
    stdout: 'dir/file\nfile\n',
    code: 0,
  },
  {
    from: 'misc.rs:sort_files',
    files: { a: 'test\n', b: 'test\n', 'dir/c': 'test\n', 'dir/d': 'test\n' },
    args: ['--sort', 'path', 'test'],
    stdout: 'a:test\nb:test\ndir/c:test\ndir/d:test\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1_utf16_auto',
    files: { foo: UTF16_SHERLOCK },
    args: ['Шерлок Холмс'],
    stdout: 'foo:Шерлок Холмс\n',
    code: 0,
  },
  {
    from: 'feature.rs:f7',
    files: { sherlock: SHERLOCK, pat: 'Sherlock\nHolmes' },
    args: ['-fpat', 'sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the Sherlock\nHolmeses, success in the province of detective work must always\nbe, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'feature.rs:f20_no_filename',
    files: { sherlock: SHERLOCK },
    args: ['--no-filename', 'Sherlock'],
    stdout:
      'For the Doctor Watsons of this world, as opposed to the Sherlock\nbe, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'feature.rs:f34_only_matching',
    files: { sherlock: SHERLOCK },
    args: ['-o', 'Sherlock'],
    stdout: 'sherlock:Sherlock\nsherlock:Sherlock\n',
    code: 0,
  },
  {
    from: 'feature.rs:f34_only_matching_line_column',
    files: { sherlock: SHERLOCK },
    args: ['-o', '--column', '-n', 'Sherlock'],
    stdout: 'sherlock:1:57:Sherlock\nsherlock:3:49:Sherlock\n',
    code: 0,
  },
  {
    from: 'feature.rs:f45_precedence_with_others',
    files: { '.not-an-ignore': '*.log', '.ignore': '!imp.log', 'imp.log': 'test', 'wat.log': 'test' },
    args: ['--ignore-file', '.not-an-ignore', 'test'],
    stdout: 'imp.log:test\n',
    code: 0,
  },
  {
    from: 'feature.rs:f45_precedence_internal',
    files: {
      '.not-an-ignore1': '*.log',
      '.not-an-ignore2': '!imp.log',
      'imp.log': 'test',
      'wat.log': 'test',
    },
    args: ['--ignore-file', '.not-an-ignore1', '--ignore-file', '.not-an-ignore2', 'test'],
    stdout: 'imp.log:test\n',
    code: 0,
  },
  {
    from: 'feature.rs:f68_no_ignore_vcs',
    files: { '.gitignore': 'foo', '.ignore': 'bar', foo: 'test', bar: 'test' },
    git: true,
    args: ['--no-ignore-vcs', 'test'],
    stdout: 'foo:test\n',
    code: 0,
  },
  {
    from: 'feature.rs:f70_smart_case',
    files: { sherlock: SHERLOCK },
    args: ['-S', 'sherlock'],
    stdout:
      'sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:be, to a very large extent, the result of luck. Sherlock Holmes\n',
    code: 0,
  },
  {
    from: 'feature.rs:f89_files_with_matches',
    files: { sherlock: SHERLOCK },
    args: ['--null', '--files-with-matches', 'Sherlock'],
    stdout: 'sherlock\u0000',
    code: 0,
  },
  {
    from: 'feature.rs:f89_files_without_match',
    files: { sherlock: SHERLOCK, 'file.py': 'foo' },
    args: ['--null', '--files-without-match', 'Sherlock'],
    stdout: 'file.py\u0000',
    code: 0,
  },
  {
    from: 'feature.rs:f89_count',
    files: { sherlock: SHERLOCK },
    args: ['--null', '--count', 'Sherlock'],
    stdout: 'sherlock\u00002\n',
    code: 0,
  },
  {
    from: 'feature.rs:f89_files',
    files: { sherlock: SHERLOCK },
    args: ['--null', '--files'],
    stdout: 'sherlock\u0000',
    code: 0,
  },
  {
    from: 'feature.rs:f89_match',
    files: { sherlock: SHERLOCK },
    args: ['--null', '-C1', 'Sherlock'],
    stdout:
      'sherlock\u0000For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock\u0000Holmeses, success in the province of detective work must always\nsherlock\u0000be, to a very large extent, the result of luck. Sherlock Holmes\nsherlock\u0000can extract a clew from a wisp of straw or a flake of cigar ash;\n',
    code: 0,
  },
  {
    from: 'feature.rs:f109_max_depth',
    files: { 'one/pass': 'far', 'one/too/many': 'far' },
    args: ['--max-depth', '2', 'far'],
    stdout: 'one/pass:far\n',
    code: 0,
  },
  {
    from: 'feature.rs:f109_case_sensitive_part1',
    files: { foo: 'tEsT' },
    args: ['--smart-case', '--case-sensitive', 'test'],
    stdout: '',
    code: 1,
  },
  {
    from: 'feature.rs:f109_case_sensitive_part2',
    files: { foo: 'tEsT' },
    args: ['--ignore-case', '--case-sensitive', 'test'],
    stdout: '',
    code: 1,
  },
  {
    from: 'feature.rs:f129_matches',
    files: { foo: 'test\ntest abcdefghijklmnopqrstuvwxyz test' },
    args: ['-M26', 'test'],
    stdout: 'foo:test\nfoo:[Omitted long matching line]\n',
    code: 0,
  },
  {
    from: 'feature.rs:f129_context',
    files: { foo: 'test\nabcdefghijklmnopqrstuvwxyz' },
    args: ['-M20', '-C1', 'test'],
    stdout: 'foo:test\nfoo-[Omitted long context line]\n',
    code: 0,
  },
  {
    from: 'feature.rs:f129_replace',
    files: { foo: 'test\ntest abcdefghijklmnopqrstuvwxyz test' },
    args: ['-M26', '-rfoo', 'test'],
    stdout: 'foo:foo\nfoo:[Omitted long line with 2 matches]\n',
    code: 0,
  },
  {
    from: 'feature.rs:f159_max_count',
    files: { foo: 'test\ntest' },
    args: ['-m1', 'test'],
    stdout: 'foo:test\n',
    code: 0,
  },
  {
    from: 'feature.rs:f159_max_count_zero',
    files: { foo: 'test\ntest' },
    args: ['-m0', 'test'],
    stdout: '',
    code: 1,
  },
  {
    from: 'feature.rs:f243_column_line',
    files: { foo: 'test' },
    args: ['--column', 'test'],
    stdout: 'foo:1:1:test\n',
    code: 0,
  },
  {
    from: 'feature.rs:f263_sort_files_reverse',
    files: { abc: 'test', bar: 'test', foo: 'test', zoo: 'test' },
    args: ['--sortr=path', 'test'],
    stdout: 'zoo:test\nfoo:test\nbar:test\nabc:test\n',
    code: 0,
  },
  {
    from: 'feature.rs:f419_zero_as_shortcut_for_null',
    files: { sherlock: SHERLOCK },
    args: ['-0', '--count', 'Sherlock'],
    stdout: 'sherlock\u00002\n',
    code: 0,
  },
  {
    from: 'feature.rs:f740_passthru',
    files: { file: '\nfoo\nbar\nfoobar\n\nbaz\n' },
    args: ['-n', '--passthru', 'foo', 'file'],
    stdout: '1-\n2:foo\n3-bar\n4:foobar\n5-\n6-baz\n',
    code: 0,
  },
  {
    from: 'feature.rs:f740_passthru (-e)',
    files: { file: '\nfoo\nbar\nfoobar\n\nbaz\n' },
    args: ['-n', '--passthru', '-e', 'foo', '-e', 'bar', 'file'],
    stdout: '1-\n2:foo\n3:bar\n4:foobar\n5-\n6-baz\n',
    code: 0,
  },
  {
    from: 'feature.rs:f948_exit_code_match',
    files: { file: 'foo\n' },
    args: ['.'],
    stdout: 'file:foo\n',
    code: 0,
  },
  {
    from: 'feature.rs:f948_exit_code_no_match',
    files: { file: 'foo\n' },
    args: ['NADA'],
    stdout: '',
    code: 1,
  },
  {
    from: 'feature.rs:f917_trim',
    files: { sherlock: '  Sherlock\n\tHolmeses, success\n   x\n' },
    args: ['-n', '-B1', '-A2', '--trim', 'Holmeses', 'sherlock'],
    stdout: '1-Sherlock\n2:Holmeses, success\n3-x\n',
    code: 0,
  },
  {
    from: 'feature.rs:f917_trim_match',
    files: { sherlock: '  Sherlock\n\tHolmeses, success\n   x\n' },
    args: ['-n', '-B1', '-A2', '--trim', '\\s+Holmeses', 'sherlock'],
    stdout: '1-Sherlock\n2:Holmeses, success\n3-x\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1138_no_ignore_dot',
    files: { '.gitignore': 'foo', '.ignore': 'bar', '.fzf-ignore': 'quux', foo: '', bar: '', quux: '' },
    git: true,
    args: ['--sort', 'path', '--files', '--no-ignore-dot'],
    stdout: 'bar\nquux\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1207_auto_encoding',
    files: { foo: UTF16_NUL },
    args: ['-a', '\\x00', 'foo'],
    stdout: '',
    code: 1,
  },
  {
    from: 'feature.rs:f1404_nothing_searched_warning',
    files: { '.ignore': 'ignored-dir/**', 'ignored-dir/foo': 'needle' },
    args: ['needle'],
    stdout: '',
    code: 2,
  },
  {
    from: 'feature.rs:f1404_nothing_searched_ignored',
    files: { '.ignore': 'ignored-dir/**', 'ignored-dir/foo': 'needle' },
    args: ['--no-messages', 'needle'],
    stdout: '',
    code: 2,
  },
  {
    from: 'feature.rs:f2288_context_partial_override',
    files: { test: '1\n2\n3\n4\n5\n6\n7\n8\n9\n' },
    args: ['-C1', '-A2', '5', 'test'],
    stdout: '4\n5\n6\n7\n',
    code: 0,
  },
  {
    from: 'feature.rs:no_context_sep',
    files: { test: 'foo\nctx\nbar\nfoo\nctx\nbar\n' },
    args: ['-A1', '--no-context-separator', 'foo', 'test'],
    stdout: 'foo\nctx\nfoo\nctx\n',
    code: 0,
  },
  {
    from: 'feature.rs:context_sep',
    files: { test: 'foo\nctx\nbar\nfoo\nctx\nbar\n' },
    args: ['-A1', '--context-separator', 'AAA', 'foo', 'test'],
    stdout: 'foo\nctx\nAAA\nfoo\nctx\n',
    code: 0,
  },
  {
    from: 'feature.rs:context_sep_empty',
    files: { test: 'foo\nctx\nbar\nfoo\nctx\nbar\n' },
    args: ['-A1', '--context-separator', '', 'foo', 'test'],
    stdout: 'foo\nctx\n\nfoo\nctx\n',
    code: 0,
  },
  {
    from: 'multiline.rs:overlap1',
    files: { test: 'xxx\nabc\ndefxxxabc\ndefxxx\nxxx' },
    args: ['-n', '-U', 'abc\ndef', 'test'],
    stdout: '2:abc\n3:defxxxabc\n4:defxxx\n',
    code: 0,
  },
  {
    from: 'multiline.rs:overlap2',
    files: { test: 'xxx\nabc\ndefabc\ndefxxx\nxxx' },
    args: ['-n', '-U', 'abc\ndef', 'test'],
    stdout: '2:abc\n3:defabc\n4:defxxx\n',
    code: 0,
  },
  {
    from: 'multiline.rs:dot_no_newline',
    files: { sherlock: SHERLOCK },
    args: ['-n', '-U', 'of this world.+detective work', 'sherlock'],
    stdout: '',
    code: 1,
  },
  {
    from: 'multiline.rs:dot_all',
    files: { sherlock: SHERLOCK },
    args: ['-n', '-U', '--multiline-dotall', 'of this world.+detective work', 'sherlock'],
    stdout:
      '1:For the Doctor Watsons of this world, as opposed to the Sherlock\n2:Holmeses, success in the province of detective work must always\n',
    code: 0,
  },
  {
    from: 'multiline.rs:only_matching',
    files: { sherlock: SHERLOCK },
    args: ['-n', '-U', '--only-matching', 'Watson|Sherlock\\p{Any}+?Holmes', 'sherlock'],
    stdout: '1:Watson\n1:Sherlock\n2:Holmes\n3:Sherlock Holmes\n5:Watson\n',
    code: 0,
  },
  {
    from: 'multiline.rs:vimgrep',
    files: { sherlock: SHERLOCK },
    args: ['-n', '-U', '--vimgrep', 'Watson|Sherlock\\p{Any}+?Holmes', 'sherlock'],
    stdout:
      'sherlock:1:16:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:1:57:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:3:49:be, to a very large extent, the result of luck. Sherlock Holmes\nsherlock:5:12:but Doctor Watson has to have it taken out for him and dusted,\n',
    code: 0,
  },
  {
    from: 'multiline.rs:context',
    files: { sherlock: SHERLOCK },
    args: ['-n', '-U', '-C1', 'detective work\\p{Any}+?result of luck', 'sherlock'],
    stdout:
      '1-For the Doctor Watsons of this world, as opposed to the Sherlock\n2:Holmeses, success in the province of detective work must always\n3:be, to a very large extent, the result of luck. Sherlock Holmes\n4-can extract a clew from a wisp of straw or a flake of cigar ash;\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_explicit',
    files: { hay: sherlockNul() },
    args: ['-n', 'Project Gutenberg EBook', 'hay'],
    stdout: '1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\n',
    code: 0,
  },
  {
    from: 'binary.rs:mmap_match_multiple',
    files: { hay: sherlockNul() },
    args: ['-n', 'Project Gutenberg EBook|Heaven', 'hay'],
    stdout:
      '1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\n1871:"No. Heaven knows what the objects of his studies are. But here we\n',
    code: 0,
  },
  {
    from: 'binary.rs:mmap_match_near_nul',
    files: { hay: sherlockNul() },
    args: ['-n', 'abcdef', 'hay'],
    stdout: 'binary file matches (found "\\0" byte around offset 103450)\n',
    code: 0,
  },
  {
    from: 'binary.rs:mmap_match_count',
    files: { hay: sherlockNul() },
    args: ['-c', 'Project Gutenberg EBook|Heaven', 'hay'],
    stdout: '2\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_explicit_text',
    files: { hay: sherlockNul() },
    args: ['-n', '--text', 'Project Gutenberg EBook', 'hay'],
    stdout: '1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_implicit_path',
    files: { hay: sherlockNul() },
    args: ['-l', 'Project Gutenberg EBook', '-g', 'hay'],
    stdout: 'hay\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_implicit_quiet',
    files: { hay: sherlockNul() },
    args: ['-q', 'Project Gutenberg EBook', '-g', 'hay'],
    stdout: '',
    code: 0,
  },
  {
    from: 'binary.rs:before_match1_implicit',
    files: { hay: sherlockNul() },
    args: ['-n', 'Heaven', '-g', 'hay'],
    stdout: '',
    code: 1,
  },
  {
    from: 'binary.rs:before_match1_implicit_text',
    files: { hay: sherlockNul() },
    args: ['-n', '--text', 'Heaven', '-g', 'hay'],
    stdout: 'hay:1871:"No. Heaven knows what the objects of his studies are. But here we\n',
    code: 0,
  },
  {
    from: 'binary.rs:before_match2_explicit',
    files: { hay: sherlockNul() },
    args: ['-n', 'a medical student', 'hay'],
    stdout: '1867:"And yet you say he is not a medical student?"\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_implicit',
    files: { hay: sherlockNul() },
    args: ['-n', 'Project Gutenberg EBook', '-g', 'hay'],
    stdout:
      'hay:1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\nhay: WARNING: stopped searching binary file after match (found "\\0" byte around offset 103450)\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_implicit_binary',
    files: { hay: sherlockNul() },
    args: ['-n', '--binary', 'Project Gutenberg EBook', '-g', 'hay'],
    stdout:
      'hay:1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\nhay: binary file matches (found "\\0" byte around offset 103450)\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_implicit_count',
    files: { hay: sherlockNul() },
    args: ['-c', 'Project Gutenberg EBook', '-g', 'hay'],
    stdout: '',
    code: 1,
  },
  {
    from: 'binary.rs:after_match1_implicit_count_binary',
    files: { hay: sherlockNul() },
    args: ['-c', '--binary', 'Project Gutenberg EBook', '-g', 'hay'],
    stdout: 'hay:1\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match2_implicit_text',
    files: { hay: sherlockNul() },
    args: ['-n', '--text', 'Project Gutenberg EBook|a medical student', '-g', 'hay'],
    stdout:
      'hay:1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\nhay:1867:"And yet you say he is not a medical student?"\n',
    code: 0,
  },
  {
    from: 'regression.rs:r1176_literal_file',
    files: { patterns: 'foo(bar\n', test: 'foo(bar' },
    args: ['-F', '-f', 'patterns', 'test'],
    stdout: 'foo(bar\n',
    code: 0,
  },
  {
    from: 'regression.rs:r1176_line_regex',
    files: { patterns: 'foo\n', test: 'foobar\nfoo\nbarfoo\n' },
    args: ['-x', '-f', 'patterns', 'test'],
    stdout: 'foo\n',
    code: 0,
  },
  {
    from: 'regression.rs:r1334_invert_empty_patterns (zero)',
    files: { 'zero-patterns': '', 'one-pattern': '\n', haystack: 'one\ntwo\nthree\n' },
    args: ['-f', 'zero-patterns', 'haystack'],
    stdout: '',
    code: 1,
  },
  {
    from: 'regression.rs:r1334_invert_empty_patterns (one)',
    files: { 'zero-patterns': '', 'one-pattern': '\n', haystack: 'one\ntwo\nthree\n' },
    args: ['-f', 'one-pattern', 'haystack'],
    stdout: 'one\ntwo\nthree\n',
    code: 0,
  },
  {
    from: 'regression.rs:r1334_invert_empty_patterns (-v zero)',
    files: { 'zero-patterns': '', 'one-pattern': '\n', haystack: 'one\ntwo\nthree\n' },
    args: ['-vf', 'zero-patterns', 'haystack'],
    stdout: 'one\ntwo\nthree\n',
    code: 0,
  },
  {
    from: 'regression.rs:r1334_invert_empty_patterns (-v one)',
    files: { 'zero-patterns': '', 'one-pattern': '\n', haystack: 'one\ntwo\nthree\n' },
    args: ['-vf', 'one-pattern', 'haystack'],
    stdout: '',
    code: 1,
  },
  {
    from: 'regression.rs:r1334_crazy_literals',
    files: {
      patterns:
        '1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n1.208.0.0/12\n',
      corpus: '1.208.0.0/12\n',
    },
    args: ['-Ff', 'patterns', 'corpus'],
    stdout: '1.208.0.0/12\n',
    code: 0,
  },
  {
    from: 'regression.rs:r1380',
    files: { foo: 'a\nb\nc\nd\ne\nd\ne\nd\ne\nd\ne\n' },
    args: ['-A2', '-m1', 'd', 'foo'],
    stdout: 'd\ne\nd\n',
    code: 0,
  },
  {
    from: 'regression.rs:r2480 (empty -e)',
    files: { file: 'FooBar\n' },
    args: ['-e', '', 'file'],
    stdout: 'FooBar\n',
    code: 0,
  },
  {
    from: 'regression.rs:r2480 (-o, two -e)',
    files: { file: 'FooBar\n' },
    args: ['--only-matching', '-e', 'Foo', '-e', 'Bar', 'file'],
    stdout: 'Foo\nBar\n',
    code: 0,
  },
  {
    from: 'regression.rs:r2480 (groups)',
    files: { file: 'FooBar\n' },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a ripgrep replacement template, not JS
    args: ['-e', 'Fo(oB)a(r)', '--replace', '${0}_${1}_${2}${3}', 'file'],
    stdout: 'FooBar_oB_r\n',
    code: 0,
  },
  {
    from: 'issue-13: a pattern that must match NUL is refused',
    files: { foo: 'foo\n' },
    args: ['foo\\x00?', 'foo'],
    stdout: '',
    code: 2,
  },
  {
    from: 'issue-13: a UTF-8 BOM is not part of the first line',
    files: { test: '﻿test\n' },
    args: ['-n', '^test', 'test'],
    stdout: '1:test\n',
    code: 0,
  },
  {
    from: 'issue-13: -U --json over CRLF: one match, two submatches',
    files: { foo: 'test\r\n\n' },
    args: ['-U', '--json', '\n'],
    stdout:
      '{"type":"begin","data":{"path":{"text":"foo"}}}\n{"type":"match","data":{"path":{"text":"foo"},"lines":{"text":"test\\r\\n\\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"\\n"},"start":5,"end":6},{"match":{"text":"\\n"},"start":6,"end":7}]}}\n{"type":"end","data":{"path":{"text":"foo"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":150044,"human":"0.000150s"},"searches":1,"searches_with_match":1,"bytes_searched":7,"bytes_printed":261,"matched_lines":2,"matches":2}}}\n{"data":{"elapsed_total":{"human":"0.018334s","nanos":18333771,"secs":0},"stats":{"bytes_printed":261,"bytes_searched":7,"elapsed":{"human":"0.000150s","nanos":150044,"secs":0},"matched_lines":2,"matches":2,"searches":1,"searches_with_match":1}},"type":"summary"}\n',
    code: 0,
  },
  {
    from: 'json.rs:basic',
    files: { sherlock: SHERLOCK },
    args: ['--json', '-B1', 'Sherlock Holmes', 'sherlock'],
    stdout:
      '{"type":"begin","data":{"path":{"text":"sherlock"}}}\n{"type":"context","data":{"path":{"text":"sherlock"},"lines":{"text":"Holmeses, success in the province of detective work must always\\n"},"line_number":2,"absolute_offset":65,"submatches":[]}}\n{"type":"match","data":{"path":{"text":"sherlock"},"lines":{"text":"be, to a very large extent, the result of luck. Sherlock Holmes\\n"},"line_number":3,"absolute_offset":129,"submatches":[{"match":{"text":"Sherlock Holmes"},"start":48,"end":63}]}}\n{"type":"end","data":{"path":{"text":"sherlock"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":1365816,"human":"0.001366s"},"searches":1,"searches_with_match":1,"bytes_searched":367,"bytes_printed":494,"matched_lines":1,"matches":1}}}\n{"data":{"elapsed_total":{"human":"0.007062s","nanos":7061904,"secs":0},"stats":{"bytes_printed":494,"bytes_searched":367,"elapsed":{"human":"0.001366s","nanos":1365816,"secs":0},"matched_lines":1,"matches":1,"searches":1,"searches_with_match":1}},"type":"summary"}\n',
    code: 0,
  },
  {
    from: 'json.rs:replacement (no effect on --json)',
    files: { sherlock: SHERLOCK },
    args: ['--json', '--replace', 'Moriarity', 'Sherlock Holmes', 'sherlock'],
    stdout:
      '{"type":"begin","data":{"path":{"text":"sherlock"}}}\n{"type":"match","data":{"path":{"text":"sherlock"},"lines":{"text":"be, to a very large extent, the result of luck. Sherlock Holmes\\n"},"line_number":3,"absolute_offset":129,"submatches":[{"match":{"text":"Sherlock Holmes"},"replacement":{"text":"Moriarity"},"start":48,"end":63}]}}\n{"type":"end","data":{"path":{"text":"sherlock"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":120418,"human":"0.000120s"},"searches":1,"searches_with_match":1,"bytes_searched":367,"bytes_printed":336,"matched_lines":1,"matches":1}}}\n{"data":{"elapsed_total":{"human":"0.001948s","nanos":1947638,"secs":0},"stats":{"bytes_printed":336,"bytes_searched":367,"elapsed":{"human":"0.000120s","nanos":120418,"secs":0},"matched_lines":1,"matches":1,"searches":1,"searches_with_match":1}},"type":"summary"}\n',
    code: 0,
  },
  {
    from: 'issue-13: --trim with -o',
    files: { file: '  a b\n' },
    args: ['--trim', '-o', ' *b', 'file'],
    stdout: 'b\n',
    code: 0,
  },
  {
    from: 'issue-13: -c -U counts matches when the pattern can match a line end',
    files: { f: 'abc\ndef\nabc\ndef\nxyz\nabc abc\n' },
    args: ['-c', '-U', 'abc\\ndef|c\\n', 'f'],
    stdout: '3\n',
    code: 0,
  },
  {
    from: 'issue-13: -c -U counts lines when it cannot',
    files: { f: 'abc\ndef\nabc\ndef\nxyz\nabc abc\n' },
    args: ['-c', '-U', 'abc', 'f'],
    stdout: '3\n',
    code: 0,
  },
  {
    from: 'issue-13: -c -U --include-zero over two files',
    files: { a: 'abc\ndef\nabc\ndef\n', b: 'nothing\n' },
    args: ['-c', '-U', '--include-zero', '--sort', 'path', '(?s)abc.def'],
    stdout: 'a:2\nb:0\n',
    code: 0,
  },
  {
    from: 'issue-13: --path-separator in lines, -l and --files',
    files: { 'd/e/x': 'hello world\n' },
    args: ['--path-separator', '\\', 'hello', 'd'],
    stdout: 'd\\e\\x:hello world\n',
    code: 0,
  },
  {
    from: 'issue-13: --path-separator with -c',
    files: { 'd/e/x': 'hello world\n' },
    args: ['--path-separator', '\\', '-c', 'hello', 'd'],
    stdout: 'd\\e\\x:1\n',
    code: 0,
  },
  {
    from: 'issue-13: --path-separator of two bytes is refused',
    files: { 'd/e/x': 'hello world\n' },
    args: ['--path-separator', '::', 'hello', 'd'],
    stdout: '',
    code: 2,
  },
  {
    from: 'issue-13: --max-columns-preview',
    files: { y: 'hello world foo hello hello\n', c: 'long context line here\nhi\n' },
    args: ['-M', '8', '--max-columns-preview', '-C1', '--sort', 'path', '-e', 'hello', '-e', 'hi'],
    stdout:
      'c-long con [... omitted end of long line]\nc:hi\n--\ny:hello wo [... omitted end of long line]\n',
    code: 0,
  },
  {
    from: 'issue-13: --max-columns-preview with --column counts the matches cut off',
    files: { w: 'xx hello world hello\n' },
    args: ['-M', '2', '--max-columns-preview', '--column', 'hello', 'w'],
    stdout: '1:4:xx [... 2 more matches]\n',
    code: 0,
  },
  {
    from: 'issue-13: --max-columns-preview with -r, in characters',
    files: { u: 'a\u00e9\u65e5\u672c\u8a9ehello hello\n' },
    args: ['-M', '4', '--max-columns-preview', '-r', 'X', 'hello', 'u'],
    stdout: 'a\u00e9\u65e5\u672c [... 2 more matches]\n',
    code: 0,
  },
  {
    from: 'misc.rs:stdin-like: no path and a pipe on stdin searches stdin',
    files: { y: 'hello there\n' },
    stdin: 'hello\nworld hello\n',
    args: ['-n', 'hello'],
    stdout: '1:hello\n2:world hello\n',
    code: 0,
  },
  {
    from: 'issue-13: - as a path, with file names',
    files: { y: 'hello there\n' },
    stdin: 'world hello\n',
    args: ['-H', 'hello', '-'],
    stdout: '<stdin>:world hello\n',
    code: 0,
  },
  {
    from: 'issue-13: stdin in JSON',
    files: {},
    stdin: 'a\nhello\n',
    args: ['--json', 'hello'],
    stdout:
      '{"type":"begin","data":{"path":{"text":"<stdin>"}}}\n{"type":"match","data":{"path":{"text":"<stdin>"},"lines":{"text":"hello\\n"},"line_number":2,"absolute_offset":2,"submatches":[{"match":{"text":"hello"},"start":0,"end":5}]}}\n{"type":"end","data":{"path":{"text":"<stdin>"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":0,"human":"0.000000s"},"searches":1,"searches_with_match":1,"bytes_searched":8,"bytes_printed":227,"matched_lines":1,"matches":1}}}\n{"data":{"elapsed_total":{"human":"0.000000s","nanos":0,"secs":0},"stats":{"bytes_printed":227,"bytes_searched":8,"elapsed":{"human":"0.000000s","nanos":0,"secs":0},"matched_lines":1,"matches":1,"searches":1,"searches_with_match":1}},"type":"summary"}\n',
    code: 0,
  },
  {
    from: 'issue-13: stdin without a match',
    files: { y: 'hello there\n' },
    stdin: 'world\n',
    args: ['-c', 'hello'],
    stdout: '',
    code: 1,
  },
  {
    from: 'issue-13: a CRLF line prints with its \\r (without --crlf, $ does not match before it)',
    files: { f: 'foo\r\nbar foo\r\nfoo x\r\n' },
    args: ['-n', '-e', 'foo$', '-e', '^bar', 'f'],
    stdout: '2:bar foo\r\n',
    code: 0,
  },
  {
    from: 'issue-13: --crlf: $ before \\r\\n, . not \\r, -o and counts end in \\r\\n',
    files: { f: 'foo\r\nbar foo\r\nfoo x\r\n' },
    args: ['--crlf', '-o', 'o.$', 'f'],
    stdout: 'oo\r\noo\r\n',
    code: 0,
  },
  {
    from: 'issue-13: --crlf with -c and -x',
    files: { f: 'foo\r\nbar foo\r\nfoo x\r\n' },
    args: ['--crlf', '-c', '-x', 'foo', 'f'],
    stdout: '1\r\n',
    code: 0,
  },
  {
    from: 'issue-13: --crlf -l and headings over an LF file',
    files: { g: 'foo\nbar\n' },
    args: ['--crlf', '--heading', '-H', 'foo$', 'g'],
    stdout: 'g\r\nfoo\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1_eucjp-like: -E latin1',
    files: { l1: Buffer.from('caf\xe9 ol\xe9\nno\n', 'latin1') },
    args: ['-n', '-E', 'latin1', '\u00e9', 'l1'],
    stdout: '1:caf\u00e9 ol\u00e9\n',
    code: 0,
  },
  {
    from: 'issue-13: -E utf-16le without a BOM, offsets of the transcoded text',
    files: { u16: Buffer.from('hello w\u00f6rld\nbye\n', 'utf16le') },
    args: ['-E', 'utf-16le', '-b', '-o', 'w.rld', 'u16'],
    stdout: '6:w\u00f6rld\n',
    code: 0,
  },
  {
    from: 'issue-13: -E utf-16be',
    files: { u16be: Buffer.from('hello w\u00f6rld\nbye\n', 'utf16le').swap16() },
    args: ['-E', 'utf-16be', '-n', 'bye', 'u16be'],
    stdout: '2:bye\n',
    code: 0,
  },
  {
    from: 'issue-13: -E none reads raw bytes (no BOM sniffing)',
    files: { bom16: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello\n', 'utf16le')]) },
    args: ['-E', 'none', '-a', '-c', 'h.e.l', 'bom16'],
    stdout: '1\n',
    code: 0,
  },
  {
    from: 'issue-13: -E with an unknown encoding is refused',
    files: { l1: 'x\n' },
    args: ['-E', 'bogus', 'x', 'l1'],
    stdout: '',
    code: 2,
  },
  {
    from: 'issue-13: -L follows links to files and directories; a loop and a broken link are errors (exit 2)',
    files: { 'real/sub/f': 'needle real\n', 'other.txt': 'needle other\n' },
    links: { link: 'real', 'real/sub/up': '..', flink: 'other.txt', broken: 'nowhere' },
    args: ['-L', '--sort', 'path', 'needle'],
    stdout: 'flink:needle other\nlink/sub/f:needle real\nother.txt:needle other\nreal/sub/f:needle real\n',
    code: 2,
  },
  {
    from: 'issue-13: without -L links below the root are not followed',
    files: { 'real/sub/f': 'needle real\n', 'other.txt': 'needle other\n' },
    links: { link: 'real', flink: 'other.txt', broken: 'nowhere' },
    args: ['--sort', 'path', 'needle'],
    stdout: 'other.txt:needle other\nreal/sub/f:needle real\n',
    code: 0,
  },
  {
    from: 'issue-13: -L --files',
    files: { 'real/sub/f': 'x\n' },
    links: { link: 'real' },
    args: ['-L', '--files', '--sort', 'path'],
    stdout: 'link/sub/f\nreal/sub/f\n',
    code: 0,
  },
  ...TERMINATOR_CASES,
  ...COLOR_CASES,
  ...MESSAGE_CASES,
  ...MAX_COLUMNS_CASES,
  ...FLAG_CASES,
  ...FEATURE_CASES,
  ...REGRESSION_CASES,
];
