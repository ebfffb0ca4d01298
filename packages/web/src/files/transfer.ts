/**
 * A Files-rail row carried by drag and drop or by copy and paste: the row travels as our own MIME type (what the
 * composer attaches) and as its token in text/plain (what any other text field gets).
 */
import { type Attachment, attachmentToken } from '../tokens/wire.js';

/** The data type a rail row is carried under. */
export const ATTACHMENT_MIME = 'application/x-trawl-attachment';

/** Puts `item` on a drag's or a copy's DataTransfer. */
export function writeAttachment(data: DataTransfer, item: Attachment): void {
  data.setData(ATTACHMENT_MIME, JSON.stringify(item));
  data.setData('text/plain', attachmentToken(item) ?? item.rel);
}

/** The rail row a DataTransfer carries, or null when it carries none (text from elsewhere, a file from the OS). */
export function readAttachment(data: DataTransfer | null): Attachment | null {
  const raw = data?.getData(ATTACHMENT_MIME);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Attachment>;
    if ((v.kind === 'file' || v.kind === 'dir') && typeof v.rel === 'string' && v.rel !== '')
      return { kind: v.kind, rel: v.rel };
  } catch {
    // not ours after all
  }
  return null;
}

/** The props that make a rail row draggable and copyable as an attachment. */
export function transferProps(item: Attachment) {
  return {
    draggable: true,
    onDragStart: (e: React.DragEvent) => {
      writeAttachment(e.dataTransfer, item);
      e.dataTransfer.effectAllowed = 'copy';
    },
    onCopy: (e: React.ClipboardEvent) => {
      e.preventDefault();
      writeAttachment(e.clipboardData, item);
    },
  };
}
