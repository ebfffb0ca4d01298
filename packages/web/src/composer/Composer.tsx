/**
 * The composer: a textarea ("Message"), the picker above it, the preview strip of chips derived from the tokens in
 * the text, and Send. Chips are never side state: a folder chip is a `@dir/` token in the text and a file chip a
 * picked `@file` token, so typing, deleting, cutting, pasting and drafts all stage and unstage for free.
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { errorText } from '../api/client.js';
import { readAttachment } from '../files/transfer.js';
import { MENTION_AT_CARET, PATH_AT_CARET, replaceTokenAtCaret } from '../tokens/caret.js';
import { removeMention } from '../tokens/mentions.js';
import { buildFileLabels, dirFullPath, makeRelative } from '../tokens/paths.js';
import {
  type Attachment,
  attachmentToken,
  buildWire,
  type MessageMeta,
  type PickedFile,
  spliceAttachments,
  stagedRefs,
} from '../tokens/wire.js';
import { CloseIcon, FileIcon, FolderIcon, SendIcon, StopIcon } from '../ui/icons.js';
import { Visible, visibleName } from '../ui/Visible.js';
import { loadDraft, saveDraft } from './drafts.js';
import { Picker } from './Picker.js';
import { noteRecent } from './recent.js';
import { modeFor, usePicker } from './usePicker.js';

export interface Outgoing {
  text: string;
  wire: string;
  meta: MessageMeta;
}

export interface ComposerProps {
  /** Drafts are kept per conversation; remount (key) the composer when it changes. */
  conversationId: string;
  /** The project tokens resolve against; without one `./` completion is off and `@` searches unscoped. */
  project: string;
  onSend: (out: Outgoing) => Promise<void>;
  busy?: boolean;
  /**
   * Files and folders to attach from outside (the Files rail's "Add to message"), with the absolute path each stands
   * for. A new `n` is a new request; the request present when the composer mounts is not applied again.
   */
  attach?: AttachRequest | null;
  /** A reply is being written: Send becomes Stop, and Escape (the picker closed) stops it too. */
  streaming?: boolean;
  onStop?: () => void;
  /**
   * Text and picked files to put in the box in place of what is there (Edit on a sent message). A new `n` is a new
   * request; the request present when the composer mounts is not applied again.
   */
  restore?: RestoreRequest | null;
}

export interface RestoreRequest {
  text: string;
  picked: PickedFile[];
  n: number;
}

const cannotAttach = (rels: readonly string[]) =>
  `Can't attach ${rels.map((x) => `“${x}”`).join(', ')}: a name with a line break cannot be a token. ` +
  'Type its path in the message instead.';

export interface AttachRequest {
  items: (Attachment & { path: string })[];
  n: number;
}

/** Focus is still where a send left it: on the page itself or inside the composer (its box, Send). */
function focusStayedHere(): boolean {
  const at = document.activeElement;
  return !at || at === document.body || at.closest('.composer') !== null;
}

export function Composer({
  conversationId,
  project,
  onSend,
  busy = false,
  attach = null,
  streaming = false,
  onStop,
  restore = null,
}: ComposerProps) {
  const initial = useMemo(() => loadDraft(conversationId), [conversationId]);
  const [text, setText] = useState(initial.text);
  const [picked, setPicked] = useState<PickedFile[]>(initial.picked);
  const [caret, setCaret] = useState(initial.text.length);
  // A restored draft ending in `@query` does not open the picker by itself: only typing (update) opens it.
  const [dismissed, setDismissed] = useState(initial.text !== '');
  const appliedRestore = useRef(restore?.n ?? 0);
  const [sendError, setSendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [attachNote, setAttachNote] = useState<string | null>(null);
  const appliedAttach = useRef(attach?.n ?? 0);
  // An Enter (or Tab) pressed while the @ search for this query was still debouncing or running: the query it was
  // pressed for, honoured with the first row once that query's answer is on screen.
  const [heldEnter, setHeldEnter] = useState<string | null>(null);
  const pendingCaret = useRef<number | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  // Counts what changed the box's text (typing, inserts, Edit), so a send that completes late clears only its own.
  const boxChanged = useRef(0);
  const listId = useId();

  useEffect(() => {
    saveDraft(conversationId, { text, picked });
  }, [conversationId, text, picked]);

  // Focused when it appears (page load, another conversation), as a chat's input is.
  useEffect(() => {
    area.current?.focus();
  }, []);

  // Edit: the message's text and files replace the box's, the caret at the end, the picker closed until typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: applied once per request (its n)
  useEffect(() => {
    if (!restore || restore.n === appliedRestore.current) return;
    appliedRestore.current = restore.n;
    boxChanged.current++;
    setText(restore.text);
    setPicked(restore.picked);
    setCaret(restore.text.length);
    setDismissed(true);
    setAttachNote(null);
    pendingCaret.current = restore.text.length;
  }, [restore?.n]);

  // Restore the caret after a programmatic insert, keeping focus in the textarea.
  useLayoutEffect(() => {
    if (pendingCaret.current === null || !area.current) return;
    const at = pendingCaret.current;
    pendingCaret.current = null;
    area.current.focus();
    area.current.setSelectionRange(at, at);
  });

  const mode = dismissed ? null : modeFor(text.slice(0, caret), project);
  const picker = usePicker(mode, project);
  const staged = useMemo(() => stagedRefs(text, project, picked), [text, project, picked]);

  const update = (value: string, at: number) => {
    boxChanged.current++;
    setText(value);
    setCaret(at);
    setDismissed(false);
    setAttachNote(null);
  };

  // An attachment lands at the caret as the token a pick would have typed, so it stages, unstages and drafts the
  // same way; a file also records its absolute path, as a pick does.
  const attachItems = (items: AttachRequest['items'], at: number | null) => {
    const r = spliceAttachments(text, at, items);
    const files = items.filter((i) => i.kind === 'file' && !r.refused.includes(i.rel));
    if (files.length > 0) {
      const rels = new Set(files.map((f) => f.rel));
      setPicked((p) => [
        ...p.filter((x) => !rels.has(x.rel)),
        ...files.map((f) => ({ rel: f.rel, path: f.path })),
      ]);
    }
    update(r.value, r.caret);
    if (r.refused.length > 0) setAttachNote(cannotAttach(r.refused));
    return r;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: applied once per request (its n), against this render's text
  useEffect(() => {
    if (!attach || attach.n === appliedAttach.current) return;
    appliedAttach.current = attach.n;
    // The caret moves past the run, but focus stays where it was: someone adding several rows keeps their place.
    attachItems(attach.items, caret);
  }, [attach?.n]);

  // A rail row dropped on or pasted into the textarea attaches as its "+" would; other data is the browser's.
  const attachTransfer = (e: React.DragEvent | React.ClipboardEvent, data: DataTransfer | null) => {
    const item = readAttachment(data);
    if (!item || !project) return;
    e.preventDefault();
    const at = e.currentTarget instanceof HTMLTextAreaElement ? e.currentTarget.selectionStart : caret;
    pendingCaret.current = attachItems([{ ...item, path: dirFullPath(item.rel, project) }], at).caret;
  };

  const choose = (index: number) => {
    const pick = picker.pickAt(index);
    if (!pick || !picker.mode) return;
    // A file completed with `./` is attached as an @ token, the way a picked mention is; a folder continues.
    const attachPath = picker.mode.kind === 'path' && pick.kind === 'file';
    const rel = attachPath ? makeRelative(pick.path, picker.root) : pick.rel;
    const mentions = picker.mode.kind === 'mention' || (attachPath && rel !== pick.path);
    const token = mentions ? attachmentToken({ kind: pick.kind, rel }) : null;
    if (mentions && token === null) {
      // No token carries this name (a line break in it): say so, insert nothing.
      setDismissed(true);
      setAttachNote(cannotAttach([rel]));
      return;
    }
    const re = picker.mode.kind === 'path' ? PATH_AT_CARET : MENTION_AT_CARET;
    const insert = mentions && attachPath ? `${token} ` : pick.insert;
    const r = replaceTokenAtCaret(text, caret, re, insert);
    if (mentions && pick.kind === 'file') {
      setPicked((p) => [...p.filter((x) => x.rel !== rel), { rel, path: pick.path }]);
      noteRecent(project, pick.path);
    }
    pendingCaret.current = r.caret;
    update(r.value, r.caret);
  };

  // The held Enter, once its query's rows are the ones on screen: the row the person would have seen first.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the picker's answer changes
  useEffect(() => {
    if (heldEnter === null) return;
    if (!picker.open || picker.mode?.kind !== 'mention' || picker.live !== heldEnter) {
      setHeldEnter(null);
      return;
    }
    if (!picker.current) return;
    setHeldEnter(null);
    if (picker.rows.length > 0) choose(0);
  }, [heldEnter, picker.open, picker.live, picker.current, picker.rows]);

  const send = async () => {
    if (sending || busy || streaming || text.trim() === '') return;
    const { wire, meta } = buildWire(text, project, picked);
    setSending(true);
    setSendError(null);
    const asSent = boxChanged.current;
    try {
      await onSend({ text, wire, meta });
      // The sent text leaves the box — unless something was put there while it was sent (Edit on a message, typing):
      // the reply can show before the send's own answer arrives.
      if (boxChanged.current === asSent) {
        setText('');
        setPicked([]);
        setCaret(0);
      }
      // Back in the box for the next message, unless the person moved on while it was sent (quick open, the tree).
      if (focusStayedHere()) area.current?.focus();
    } catch (e) {
      // Unreachable: the banner says why; here, that the message is kept.
      setSendError(errorText(e) ?? 'the server cannot be reached; your message is kept here');
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (picker.open) {
      const up = e.key === 'ArrowUp';
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(true);
        return;
      }
      if (up || e.key === 'ArrowDown') {
        if (picker.rows.length === 0) return;
        e.preventDefault();
        // The list grows upward from the composer (best match nearest), so Up goes to the next row.
        const next = picker.selected + (up ? 1 : -1);
        picker.setSelected(Math.max(0, Math.min(picker.rows.length - 1, next)));
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        const mention = picker.mode?.kind === 'mention';
        if (mention && !picker.current) {
          // Still debouncing or searching this query: hold the key until its answer arrives.
          e.preventDefault();
          setHeldEnter(picker.live);
          return;
        }
        if (picker.rows.length > 0) {
          e.preventDefault();
          choose(picker.selected);
          return;
        }
        if (mention) {
          // Nothing matches: an unresolved `@query` is never sent by the key that was meant to pick it.
          e.preventDefault();
          return;
        }
        if (!picker.releasesKeys) {
          // Still debouncing or searching: a half-typed path is never sent.
          e.preventDefault();
          return;
        }
        setDismissed(true);
        if (e.key === 'Tab') return;
      }
    }
    if (e.key === 'Escape' && streaming && onStop) {
      e.preventDefault();
      onStop();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  };

  const dirLabels = buildFileLabels(staged.dirs.map((d) => d.rel.replace(/\\/g, '/').replace(/\/+$/, '')));
  const fileLabels = buildFileLabels(staged.files.map((f) => f.path));
  const hasChips = staged.dirs.length + staged.files.length > 0;
  const activeId = picker.open && picker.rows.length > 0 ? `${listId}-${picker.selected}` : undefined;

  return (
    <div className="composer" aria-busy={sending}>
      {picker.open ? <Picker picker={picker} listId={listId} onChoose={choose} /> : null}
      <div className="composer-box">
        <div className="preview-strip" data-testid="preview-strip" hidden={!hasChips}>
          {staged.files.map((f, i) => (
            <span key={`f:${f.rel}`} className="chip" data-file-chip="" title={visibleName(f.path)}>
              <FileIcon />
              <span className="chip-label">
                <Visible text={fileLabels[i] ?? ''} />
              </span>
              <button
                type="button"
                className="chip-remove"
                aria-label="Remove"
                title={`Remove ${visibleName(f.rel)}`}
                onClick={() => {
                  const v = removeMention(text, f.rel, 'file');
                  setPicked((p) => p.filter((x) => x.rel !== f.rel));
                  update(v, Math.min(caret, v.length));
                }}
              >
                <CloseIcon />
              </button>
            </span>
          ))}
          {staged.dirs.map((d, i) => (
            // biome-ignore lint/a11y/useSemanticElements: a chip is a labelled group of icon, label and remove, not a fieldset
            <span
              key={`d:${d.rel}`}
              className="chip chip-dir"
              data-dir-chip=""
              title={visibleName(d.rel)}
              role="group"
              aria-label={visibleName(d.rel)}
            >
              <FolderIcon label="Folder" />
              <span className="chip-label">
                <Visible text={dirLabels[i] ?? ''} />/
              </span>
              <button
                type="button"
                className="chip-remove"
                aria-label="Remove folder"
                onClick={() => {
                  const v = removeMention(text, d.rel, 'dir');
                  update(v, Math.min(caret, v.length));
                }}
              >
                <CloseIcon />
              </button>
            </span>
          ))}
        </div>
        <div className="composer-row">
          <textarea
            ref={area}
            aria-label="Message"
            placeholder={
              project
                ? 'Message · @ to attach files and folders · ./ to complete a path'
                : 'Message · @ to attach files and folders'
            }
            value={text}
            rows={3}
            // The ARIA combobox pattern: the textarea owns the picker's listbox while it is open.
            role="combobox"
            aria-expanded={picker.open}
            aria-haspopup="listbox"
            aria-controls={picker.open ? listId : undefined}
            aria-autocomplete="list"
            aria-activedescendant={activeId}
            onChange={(e) => update(e.target.value, e.target.selectionStart)}
            onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
            onBlur={() => setDismissed(true)}
            onDrop={(e) => attachTransfer(e, e.dataTransfer)}
            onPaste={(e) => attachTransfer(e, e.clipboardData)}
          />
          {streaming ? (
            <button
              type="button"
              className="send stop"
              onClick={onStop}
              title="Stop the reply (Esc)"
              aria-keyshortcuts="Escape"
            >
              <StopIcon />
              <span>Stop</span>
            </button>
          ) : (
            <button
              type="button"
              className="send"
              onClick={() => void send()}
              disabled={sending || busy || text.trim() === ''}
            >
              <SendIcon />
              <span>Send</span>
            </button>
          )}
        </div>
        {attachNote ? (
          <div className="composer-note" role="status">
            {attachNote}
          </div>
        ) : null}
        {sendError ? (
          <div className="composer-error" role="alert">
            Not sent: {sendError}
          </div>
        ) : null}
      </div>
    </div>
  );
}
