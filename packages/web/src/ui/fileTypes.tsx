/**
 * A file's kind as a row shows it: an icon for the common kinds (code, text, data and config, styles, images,
 * documents, archives, shell scripts), read from the name alone, and the generic file icon for the rest.
 */
import { FileIcon, FolderIcon, Svg } from './icons.js';

export type FileType = 'code' | 'text' | 'data' | 'style' | 'image' | 'doc' | 'archive' | 'shell' | 'file';

const BY_EXTENSION: Record<string, FileType> = {};
const KINDS: [FileType, string][] = [
  [
    'code',
    'ts tsx js jsx mjs cjs mts cts py rb rs go c h cc cpp cxx hpp hh java kt kts swift scala cs fs php lua pl ' +
      'ex exs erl hs ml clj dart zig nim r jl vue svelte sql asm s',
  ],
  ['text', 'md markdown mdx txt rst adoc org tex log'],
  ['data', 'json jsonc json5 yaml yml toml ini cfg conf env xml csv tsv lock properties plist proto graphql'],
  ['style', 'css scss sass less styl html htm'],
  ['image', 'png jpg jpeg gif webp svg ico bmp tif tiff avif'],
  ['doc', 'pdf docx doc pptx ppt xlsx xls odt ods odp rtf epub'],
  ['archive', 'zip tar gz tgz bz2 xz zst 7z rar jar whl deb rpm'],
  ['shell', 'sh bash zsh fish ps1 bat cmd'],
];
for (const [type, list] of KINDS) for (const ext of list.split(' ')) BY_EXTENSION[ext] = type;
const BY_NAME: Record<string, FileType> = {
  makefile: 'code',
  dockerfile: 'code',
  rakefile: 'code',
  gemfile: 'data',
  license: 'text',
  readme: 'text',
  '.gitignore': 'data',
  '.gitattributes': 'data',
  '.editorconfig': 'data',
  '.npmrc': 'data',
};

/** The kind of a file, from its name: its last extension, a few well-known whole names, else `file`. */
export function fileTypeOf(name: string): FileType {
  const lower = name.toLowerCase();
  const whole = BY_NAME[lower];
  if (whole) return whole;
  const dot = lower.lastIndexOf('.');
  if (dot <= 0) return lower.startsWith('.') ? 'data' : 'file';
  return BY_EXTENSION[lower.slice(dot + 1)] ?? 'file';
}

const PAGE = 'M4 1.5h5l3.5 3.5v9a.5.5 0 0 1-.5.5H4a.5.5 0 0 1-.5-.5v-12a.5.5 0 0 1 .5-.5z M9 1.5V5h3.5';
const GLYPHS: Record<Exclude<FileType, 'file'>, string> = {
  code: 'M6.5 8l-1.5 1.75 1.5 1.75M9.5 8l1.5 1.75-1.5 1.75',
  text: 'M5.5 8h5M5.5 10h5M5.5 12h3',
  data: 'M7 7.5c-1 0-1 .5-1 1.25S5.5 10 5 10c.5 0 1 .5 1 1.25S6 12.5 7 12.5M9 7.5c1 0 1 .5 1 1.25s.5 1.25 1 1.25c-.5 0-1 .5-1 1.25S10 12.5 9 12.5',
  style: 'M5.5 12.5l2-5 2 5M6.3 10.7h2.4',
  image: 'M5 12.5l2-2.5 1.5 1.5 1-1 1.5 2zM9.75 8a.5.5 0 1 0 0-.01',
  doc: 'M5.5 8h5M5.5 10h5M5.5 12h5M5.5 6h2',
  archive: 'M8 1.5v1.5M8 4.5v1.5M8 7.5v1.5M7 10h2v2.5H7z',
  shell: 'M5.5 9l1.5 1.25-1.5 1.25M8 12h2.5',
};

/** The icon for a file or folder row; `data-file-type` names the kind (what tests and styles key on). */
export function TypeIcon({ name, kind }: { name: string; kind: 'file' | 'dir' }) {
  if (kind === 'dir') return <FolderIcon label="Folder" data-file-type="dir" />;
  const type = fileTypeOf(name);
  if (type === 'file') return <FileIcon data-file-type="file" />;
  return (
    <Svg data-file-type={type} className={`icon type-${type}`}>
      <path d={PAGE} />
      <path d={GLYPHS[type]} />
    </Svg>
  );
}
