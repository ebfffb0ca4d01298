/**
 * The "Add to message" button beside a file or folder row of the Files rail: it attaches the row to the composer as
 * the token a pick would have typed. Shown on hover and keyboard focus (always on touch screens).
 */
import type { Attachment } from '../tokens/wire.js';
import { PlusIcon } from '../ui/icons.js';
import { visibleName } from '../ui/Visible.js';

export type OnAttach = (item: Attachment) => void;

export function AddToMessage({
  item,
  onAttach,
  tabbable = true,
}: {
  item: Attachment;
  onAttach: OnAttach;
  /** False keeps it out of the Tab order (the tree's rows: only the active row's button is a Tab stop). */
  tabbable?: boolean;
}) {
  const shown = visibleName(item.kind === 'dir' ? `${item.rel}/` : item.rel);
  return (
    <button
      type="button"
      className="icon-button row-add"
      aria-label={`Add ${shown} to message`}
      title="Add to message"
      tabIndex={tabbable ? undefined : -1}
      onClick={() => onAttach(item)}
    >
      <PlusIcon />
    </button>
  );
}
