import type { CompatCase } from './cases.js';
import { sherlockNul } from './fixtures.js';

/**
 * ripgrep's tests that use flags added in session 3 of issue 13 (aliases it keeps, negations, --no-unicode,
 * --stop-on-nonmatch, --mmap/--no-mmap), and the --null-data regression. Expected output is ripgrep 15's (the
 * suite checks it still is). Left out: --no-mmap cases whose output depends on ripgrep's read-buffer
 * boundaries (README, late-nul-binary).
 */
export const FLAG_CASES: CompatCase[] = [
  {
    from: 'feature.rs:f109_max_depth (--maxdepth)',
    files: { 'one/pass': 'far', 'one/too/many': 'far' },
    args: ['--maxdepth', '2', 'far'],
    stdout: 'one/pass:far\n',
    code: 0,
  },
  {
    from: 'feature.rs:f263_sort_files (--sort-files)',
    files: { foo: 'test', abc: 'test', zoo: 'test', bar: 'test' },
    args: ['--sort-files', 'test'],
    stdout: 'abc:test\nbar:test\nfoo:test\nzoo:test\n',
    code: 0,
  },
  {
    from: 'regression.rs:r693_context_in_contextless_mode',
    files: { foo: 'xyz\n', bar: 'xyz\n' },
    args: ['-C1', '-c', '--sort-files', 'xyz'],
    stdout: 'bar:1\nfoo:1\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1414_no_require_git (--require-git after --no-require-git)',
    files: { '.gitignore': 'foo', foo: '', bar: '' },
    args: ['--sort', 'path', '--files', '--no-require-git', '--require-git'],
    stdout: 'bar\nfoo\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1414_no_require_git (--no-require-git)',
    files: { '.gitignore': 'foo', foo: '', bar: '' },
    args: ['--sort', 'path', '--files', '--no-require-git'],
    stdout: 'bar\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1466_no_ignore_files (--ignore-file)',
    files: { '.myignore': 'bar', bar: '', foo: '' },
    args: ['--sort', 'path', '--files', '--ignore-file', '.myignore'],
    stdout: 'foo\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1466_no_ignore_files (--no-ignore-files)',
    files: { '.myignore': 'bar', bar: '', foo: '' },
    args: ['--sort', 'path', '--files', '--ignore-file', '.myignore', '--no-ignore-files'],
    stdout: 'bar\nfoo\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1466_no_ignore_files (--ignore-files)',
    files: { '.myignore': 'bar', bar: '', foo: '' },
    args: ['--sort', 'path', '--files', '--ignore-file', '.myignore', '--no-ignore-files', '--ignore-files'],
    stdout: 'foo\n',
    code: 0,
  },
  {
    from: 'feature.rs:f1466_no_ignore_files (-u keeps --ignore-file)',
    files: { '.myignore': 'bar', bar: '', foo: '' },
    args: ['--sort', 'path', '--files', '--ignore-file', '.myignore', '-u'],
    stdout: 'foo\n',
    code: 0,
  },
  {
    from: 'misc.rs:include_zero_override',
    files: {
      sherlock:
        'For the Doctor Watsons of this world, as opposed to the Sherlock\nHolmeses, success in the province of detective work must always\nbe, to a very large extent, the result of luck. Sherlock Holmes\ncan extract a clew from a wisp of straw or a flake of cigar ash;\nbut Doctor Watson has to have it taken out for him and dusted,\nand exhibited clearly, with a label attached.\n',
    },
    args: ['--count', '--include-zero', '--no-include-zero', 'nada'],
    stdout: '',
    code: 1,
  },
  {
    from: 'feature.rs:no_unicode',
    files: { test: 'δ' },
    args: ['-i', '--no-unicode', 'Δ'],
    stdout: '',
    code: 1,
  },
  {
    from: 'feature.rs:no_unicode (--unicode back)',
    files: { test: 'δ' },
    args: ['-i', '--no-unicode', '--unicode', 'Δ'],
    stdout: 'test:δ\n',
    code: 0,
  },
  {
    from: 'regression.rs:r2574',
    files: { haystack: 'some.domain.com\nsome.domain.com/x\n' },
    args: ['--no-filename', '--no-unicode', '-w', '-o', '(\\w+\\.)*domain\\.(\\w+)'],
    stdout: 'some.domain.com\nsome.domain.com\n',
    code: 0,
  },
  {
    from: 'feature.rs:stop_on_nonmatch',
    files: { test: 'line1\nline2\nline3\nline4\nline5' },
    args: ['--stop-on-nonmatch', '[235]'],
    stdout: 'test:line2\ntest:line3\n',
    code: 0,
  },
  {
    from: 'stop-on-nonmatch: the line that stops the search can be after-context',
    files: { test: 'line1\nline2\nline3\nline4\nline5\nline2\n' },
    args: ['--stop-on-nonmatch', '-n', '-A2', '[235]', 'test'],
    stdout: '2:line2\n3:line3\n4-line4\n',
    code: 0,
  },
  {
    from: 'stop-on-nonmatch: -c',
    files: { test: 'line1\nline2\nline3\nline4\nline5\nline2\n' },
    args: ['--stop-on-nonmatch', '-c', '[235]', 'test'],
    stdout: '2\n',
    code: 0,
  },
  {
    from: 'stop-on-nonmatch: -v',
    files: { test: 'line1\nline2\nline3\nline4\nline5\nline2\n' },
    args: ['--stop-on-nonmatch', '-v', '-n', 'line[23]', 'test'],
    stdout: '1:line1\n',
    code: 0,
  },
  {
    from: 'regression.rs:r2658_null_data_line_regexp',
    files: { haystack: 'foo\u0000bar\u0000quux\u0000' },
    args: ['--null-data', '--line-regexp', 'bar'],
    stdout: 'haystack:bar\u0000',
    code: 0,
  },
  {
    from: 'feature.rs:f1_auto_hybrid_regex (--no-pcre2)',
    files: {
      sherlock:
        'For the Doctor Watsons of this world, as opposed to the Sherlock\nHolmeses, success in the province of detective work must always\nbe, to a very large extent, the result of luck. Sherlock Holmes\ncan extract a clew from a wisp of straw or a flake of cigar ash;\nbut Doctor Watson has to have it taken out for him and dusted,\nand exhibited clearly, with a label attached.\n',
    },
    args: ['--no-pcre2', 'Doctor Wat'],
    stdout:
      'sherlock:For the Doctor Watsons of this world, as opposed to the Sherlock\nsherlock:but Doctor Watson has to have it taken out for him and dusted,\n',
    code: 0,
  },
  {
    from: 'binary.rs:mmap_match_implicit',
    files: { hay: sherlockNul() },
    args: ['--mmap', '-n', 'Project Gutenberg EBook', '-g', 'hay'],
    stdout: 'hay:1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\n',
    code: 0,
  },
  {
    from: 'binary.rs:mmap_match_explicit',
    files: { hay: sherlockNul() },
    args: ['--mmap', '-n', 'Project Gutenberg EBook', 'hay'],
    stdout: '1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\n',
    code: 0,
  },
  {
    from: 'binary.rs:mmap_after_nul_match',
    files: { hay: sherlockNul() },
    args: ['--mmap', '-n', 'medical student', 'hay'],
    stdout:
      '176:"A medical student, I suppose?" said I.\n409:"A medical student, I suppose?" said I.\n642:"A medical student, I suppose?" said I.\n875:"A medical student, I suppose?" said I.\n1108:"A medical student, I suppose?" said I.\n1341:"A medical student, I suppose?" said I.\n1574:"A medical student, I suppose?" said I.\n1807:"A medical student, I suppose?" said I.\n1867:"And yet you say he is not a medical student?"\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_explicit (--no-mmap)',
    files: { hay: sherlockNul() },
    args: ['--no-mmap', '-n', 'Project Gutenberg EBook', 'hay'],
    stdout:
      '1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\nbinary file matches (found "\\0" byte around offset 103450)\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_explicit_count (--no-mmap)',
    files: { hay: sherlockNul() },
    args: ['--no-mmap', '-c', 'Project Gutenberg EBook', 'hay'],
    stdout: '1\n',
    code: 0,
  },
  {
    from: 'binary.rs:after_match1_implicit (--no-mmap)',
    files: { hay: sherlockNul() },
    args: ['--no-mmap', '-n', 'Project Gutenberg EBook', '-g', 'hay'],
    stdout:
      'hay:1:The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle\nhay: WARNING: stopped searching binary file after match (found "\\0" byte around offset 103450)\n',
    code: 0,
  },
  {
    from: 'binary.rs:before_match1_explicit (--no-mmap)',
    files: { hay: sherlockNul() },
    args: ['--no-mmap', '-n', 'Heaven', 'hay'],
    stdout: 'binary file matches (found "\\0" byte around offset 103450)\n',
    code: 0,
  },
];
