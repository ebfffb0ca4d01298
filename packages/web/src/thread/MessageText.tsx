/**
 * A user message's display text with its references as inline chips: folder icon and the token as typed, the full
 * path as tooltip. Paths come from the message's meta, so a project path with spaces stays whole.
 */
import { segmentMessage } from '../tokens/wire.js';
import { FileIcon, FolderIcon } from '../ui/icons.js';
import { Visible, visibleName } from '../ui/Visible.js';

export function MessageText({
  text,
  meta,
  project,
  onFolderOpen,
  onFileOpen,
}: {
  text: string;
  meta: unknown;
  project: string;
  onFolderOpen?: (path: string) => void;
  onFileOpen?: (path: string, line?: number) => void;
}) {
  const segments = segmentMessage(text, meta, project);
  return (
    <div className="message-text">
      {segments.map((s, i) => {
        // biome-ignore lint/suspicious/noArrayIndexKey: segments of one immutable text
        if (s.kind === 'text') return <span key={i}>{s.text}</span>;
        const isDir = s.kind === 'dir';
        const handler = isDir ? onFolderOpen : onFileOpen;
        const path = visibleName(s.path);
        const body = (
          <>
            {isDir ? <FolderIcon label="Folder" /> : <FileIcon />}
            <span>
              <Visible text={s.token} />
            </span>
          </>
        );
        if (!handler) {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <span key={i} className={`chip chip-inline${isDir ? ' chip-dir' : ''}`} title={path}>
              {body}
            </span>
          );
        }
        return (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            key={i}
            type="button"
            className={`chip chip-inline${isDir ? ' chip-dir' : ''}`}
            title={path}
            aria-label={`${isDir ? 'Open folder' : 'Open file'} ${path}`}
            onClick={() => (isDir ? onFolderOpen?.(s.path) : onFileOpen?.(s.path, s.line))}
          >
            {body}
          </button>
        );
      })}
    </div>
  );
}
