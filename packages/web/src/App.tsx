/**
 * The workbench: conversations on the left, the thread and composer in the middle, the Files rail on the right
 * (at narrow widths one pane at a time, chosen in the header). Server state lives in TanStack Query.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorText } from './api/client.js';
import { api, type Conversation, type Message } from './api/endpoints.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { type AttachRequest, Composer, type Outgoing, type RestoreRequest } from './composer/Composer.js';
import { saveDraft } from './composer/drafts.js';
import { noteRecent } from './composer/recent.js';
import { FilesRail } from './files/FilesRail.js';
import { FileViewer } from './files/FileViewer.js';
import { QuickOpen } from './files/QuickOpen.js';
import { ProjectSwitcher } from './ProjectSwitcher.js';
import { Sidebar } from './Sidebar.js';
import { messagesKey, Thread, useStreamingReply } from './thread/Thread.js';
import { dirFullPath, makeRelative } from './tokens/paths.js';
import type { Attachment, PickedFile } from './tokens/wire.js';

const ACTIVE_KEY = 'trawl.conversation';
const PROJECT_KEY = 'trawl.project';
/** The pane shown on a narrow screen; `file` (the viewer) is offered while a file is open. */
type Pane = 'chats' | 'thread' | 'files' | 'file';
/**
 * The active "conversation" before its first message: nothing exists on the server until something is sent, so
 * opening the page, pressing New conversation or switching project leaves no empty conversations behind.
 */
const NEW = 'new';
const TITLE_CHARS = 60;

const PANE_LABELS: Record<Pane, string> = { chats: 'Chats', thread: 'Thread', files: 'Files', file: 'File' };

function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

export function App() {
  const qc = useQueryClient();
  const convs = useQuery({ queryKey: ['conversations'], queryFn: ({ signal }) => api.conversations(signal) });
  const projects = useQuery({ queryKey: ['projects'], queryFn: ({ signal }) => api.projects(signal) });
  const [activeId, setActiveId] = useState<string>(() => localStorage.getItem(ACTIVE_KEY) ?? '');
  const [chosenProject, setChosenProject] = useState<string>(() => localStorage.getItem(PROJECT_KEY) ?? '');
  const [viewer, setViewer] = useState<{ rel: string; line?: number; find?: string } | null>(null);
  const [reveal, setReveal] = useState<{ rel: string; n: number } | null>(null);
  const [pane, setPane] = useState<Pane>('thread');
  const [attach, setAttach] = useState<AttachRequest | null>(null);
  const [quickOpen, setQuickOpen] = useState(false);
  // Where focus was when the viewer opened (for a file opened from quick open: before quick open), given back when
  // it closes.
  const viewerReturn = useRef<Element | null>(null);
  const quickOpenReturn = useRef<Element | null>(null);
  const viewerReturnPane = useRef<Pane>('thread');
  const [restore, setRestore] = useState<RestoreRequest | null>(null);

  const list = convs.data?.conversations ?? [];
  // The one chosen, else (it was deleted, or this is a first visit) the latest; none: a new one, not yet started.
  const active: Conversation | undefined =
    activeId === NEW ? undefined : (list.find((c) => c.id === activeId) ?? list[0]);
  const composerKey = active?.id ?? NEW;
  const knownProjects = projects.data?.projects ?? [];
  const project =
    active?.project ||
    (knownProjects.some((p) => p.path === chosenProject) ? chosenProject : (knownProjects[0]?.path ?? ''));

  useEffect(() => {
    localStorage.setItem(ACTIVE_KEY, active ? active.id : NEW);
  }, [active]);

  const streamingReply = useStreamingReply(active?.id ?? null);
  const stop = () => {
    if (active && streamingReply) void api.stop(active.id, streamingReply.id).catch(() => undefined);
  };

  const startNew = () => {
    setActiveId(NEW);
    setPane('thread');
  };

  const send = async (out: Outgoing) => {
    let conv = active;
    if (!conv) {
      // The first message creates the conversation, named after it (until someone renames it).
      const { conversation } = await api.createConversation({
        title: titleFrom(out.text),
        ...(project ? { project } : {}),
      });
      conv = conversation;
      qc.setQueryData<{ messages: Message[] }>(messagesKey(conv.id), { messages: [] });
      qc.setQueryData<{ conversations: Conversation[] }>(['conversations'], (old) => ({
        conversations: [conversation, ...(old?.conversations ?? [])],
      }));
    }
    const { message, reply } = await api.send(conv.id, out);
    const placeholder: Message = {
      id: reply.id,
      role: 'assistant',
      text: '',
      wire: '',
      meta: {},
      at: message.at,
      status: 'streaming',
    };
    qc.setQueryData<{ messages: Message[] }>(messagesKey(conv.id), (old) => ({
      messages: [...(old?.messages ?? []), message, placeholder],
    }));
    if (!active) {
      // The composer remounts for the new conversation: the not-yet-started one's draft was just sent.
      saveDraft(NEW, { text: '', picked: [] });
      setActiveId(conv.id);
    }
    void qc.invalidateQueries({ queryKey: ['conversations'] });
  };

  /** Edit: the message (its files restaged) back in the composer, to be sent as a new turn. */
  const edit = (m: Message) => {
    const picked: PickedFile[] = (m.meta.files ?? []).map((f) => ({
      rel: makeRelative(f.path, project),
      path: f.path,
    }));
    setRestore((r) => ({ text: m.text, picked, n: (r?.n ?? 0) + 1 }));
    setPane('thread');
  };

  // Ctrl+P (⌘P on a Mac) opens quick open over the project, as in an editor; the browser's print stays on the menu.
  // The composer is up as soon as the conversations are known, and the project list may answer after them: a press
  // made meanwhile is kept, and quick open shows once the project is known (a press is never lost).
  const projectsPending = projects.isPending;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        if (project || projectsPending) {
          quickOpenReturn.current = document.activeElement;
          setQuickOpen(true);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [project, projectsPending]);
  // The list came with no project: a kept press has nothing to open (and must not pop up later).
  useEffect(() => {
    if (!projectsPending && !project) setQuickOpen(false);
  }, [project, projectsPending]);

  /**
   * Shows a project file in the viewer (on a narrow screen, in its own File pane) and remembers it among the
   * project's recent files.
   */
  const showFile = (
    rel: string,
    line?: number,
    from: Element | null = document.activeElement,
    /** A document hit's preview: the viewer marks the first line of the text that holds it. */
    find?: string,
  ) => {
    if (!viewer) {
      viewerReturn.current = from;
      viewerReturnPane.current = pane === 'file' ? 'thread' : pane;
    }
    setViewer({ rel, ...(line ? { line } : {}), ...(find ? { find } : {}) });
    setPane('file');
    noteRecent(project, dirFullPath(rel, project));
  };

  const closeViewer = () => {
    setViewer(null);
    // Back to the pane it was opened from, where the element focus goes back to is shown.
    setPane((p) => (p === 'file' ? viewerReturnPane.current : p));
    const back = viewerReturn.current;
    viewerReturn.current = null;
    // After the viewer is gone; an element that went away meanwhile gives focus to the composer instead.
    requestAnimationFrame(() => {
      const target = back instanceof HTMLElement && back.isConnected ? back : null;
      (target ?? document.querySelector<HTMLElement>('textarea[aria-label="Message"]'))?.focus();
    });
  };

  const openFolder = (abs: string) => {
    const rel = makeRelative(abs, project);
    if (rel === abs && abs !== project) return;
    setReveal((r) => ({ rel: rel === abs ? '' : rel, n: (r?.n ?? 0) + 1 }));
    setPane('files');
  };
  const openFile = (abs: string, line?: number) => {
    const rel = makeRelative(abs, project);
    if (rel === abs) return;
    showFile(rel, line);
  };

  // "Add to message" in the Files rail: the composer inserts the token; at narrow widths the thread pane shows it.
  const attachToMessage = (item: Attachment) => {
    setAttach((a) => ({ items: [{ ...item, path: dirFullPath(item.rel, project) }], n: (a?.n ?? 0) + 1 }));
    setPane('thread');
  };

  return (
    <div className={`app pane-${pane}`}>
      <header className="topbar">
        <span className="brand">trawl</span>
        <ProjectSwitcher
          projects={knownProjects}
          value={project}
          onChange={(p) => {
            setChosenProject(p);
            setReveal(null);
            localStorage.setItem(PROJECT_KEY, p);
            // A conversation keeps the project it was started in: another project means a new one (made when
            // its first message is sent).
            if (active?.project && active.project !== p) setActiveId(NEW);
          }}
        />
        <nav className="pane-tabs" aria-label="Panes">
          {(['chats', 'thread', 'files', 'file'] as const)
            .filter((p) => p !== 'file' || (viewer && project))
            .map((p) => (
              <button key={p} type="button" aria-pressed={pane === p} onClick={() => setPane(p)}>
                {PANE_LABELS[p]}
              </button>
            ))}
        </nav>
      </header>
      <ConnectionBanner />
      <Sidebar
        conversations={list}
        activeId={active?.id ?? null}
        loading={convs.isPending}
        error={convs.isError ? errorText(convs.error) : null}
        onSelect={(id) => {
          setActiveId(id);
          setPane('thread');
        }}
        onCreate={startNew}
        onDelete={(id) => {
          if (active?.id === id) setActiveId(NEW);
        }}
      />
      <main className="main">
        {convs.isPending ? (
          <div className="thread thread-empty">Loading…</div>
        ) : (
          <>
            <div className="main-head">
              <h1 className="conv-title">
                {active ? active.title || 'New conversation' : 'New conversation'}
              </h1>
              <span className="note" title={project}>
                {project ? project : 'no project'}
              </span>
            </div>
            <Thread
              key={`thread:${composerKey}`}
              conversationId={active?.id ?? null}
              project={project}
              onFolderOpen={openFolder}
              onFileOpen={openFile}
              onEdit={edit}
            />
            <Composer
              key={composerKey}
              conversationId={composerKey}
              project={project}
              onSend={send}
              attach={attach}
              streaming={streamingReply !== null}
              onStop={stop}
              restore={restore}
            />
          </>
        )}
        {viewer && project ? (
          <FileViewer
            project={project}
            rel={viewer.rel}
            line={viewer.line}
            find={viewer.find}
            onClose={closeViewer}
            onAttach={active ? attachToMessage : undefined}
          />
        ) : null}
      </main>
      <FilesRail
        key={project}
        project={project}
        reveal={reveal}
        onAttach={active ? attachToMessage : undefined}
        onOpenFile={(rel, line, find) => showFile(rel, line, document.activeElement, find)}
      />
      {quickOpen && project ? (
        <QuickOpen
          project={project}
          onClose={() => setQuickOpen(false)}
          onOpen={(rel) => {
            setQuickOpen(false);
            showFile(rel, undefined, quickOpenReturn.current);
          }}
        />
      ) : null}
    </div>
  );
}
