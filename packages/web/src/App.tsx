/**
 * The workbench: conversations on the left, the thread and composer in the middle, the Files rail on the right
 * (at narrow widths one pane at a time, chosen in the header). Server state lives in TanStack Query.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, type Conversation, type Message } from './api/endpoints.js';
import { type AttachRequest, Composer, type Outgoing } from './composer/Composer.js';
import { noteRecent } from './composer/recent.js';
import { FilesRail } from './files/FilesRail.js';
import { FileViewer } from './files/FileViewer.js';
import { QuickOpen } from './files/QuickOpen.js';
import { ProjectSwitcher } from './ProjectSwitcher.js';
import { Sidebar } from './Sidebar.js';
import { messagesKey, Thread } from './thread/Thread.js';
import { dirFullPath, makeRelative } from './tokens/paths.js';
import type { Attachment } from './tokens/wire.js';

const ACTIVE_KEY = 'trawl.conversation';
const PROJECT_KEY = 'trawl.project';
type Pane = 'chats' | 'thread' | 'files';
/** The server's title for a conversation nobody named. */
const DEFAULT_TITLE = 'New conversation';
const TITLE_CHARS = 60;

function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

export function App() {
  const qc = useQueryClient();
  const convs = useQuery({ queryKey: ['conversations'], queryFn: ({ signal }) => api.conversations(signal) });
  const projects = useQuery({ queryKey: ['projects'], queryFn: ({ signal }) => api.projects(signal) });
  const [activeId, setActiveId] = useState<string | null>(() => localStorage.getItem(ACTIVE_KEY));
  const [chosenProject, setChosenProject] = useState<string>(() => localStorage.getItem(PROJECT_KEY) ?? '');
  const [viewer, setViewer] = useState<{ rel: string; line?: number } | null>(null);
  const [reveal, setReveal] = useState<{ rel: string; n: number } | null>(null);
  const [pane, setPane] = useState<Pane>('thread');
  const [attach, setAttach] = useState<AttachRequest | null>(null);
  const [quickOpen, setQuickOpen] = useState(false);

  const list = convs.data?.conversations ?? [];
  const active: Conversation | undefined = list.find((c) => c.id === activeId) ?? list[0];
  const knownProjects = projects.data?.projects ?? [];
  const project =
    active?.project ||
    (knownProjects.some((p) => p.path === chosenProject) ? chosenProject : (knownProjects[0]?.path ?? ''));

  useEffect(() => {
    if (active) localStorage.setItem(ACTIVE_KEY, active.id);
  }, [active]);

  const create = useMutation({
    mutationFn: (forProject: string) => api.createConversation(forProject ? { project: forProject } : {}),
    onSuccess: ({ conversation }) => {
      qc.setQueryData<{ conversations: Conversation[] }>(['conversations'], (old) => ({
        conversations: [conversation, ...(old?.conversations ?? [])],
      }));
      setActiveId(conversation.id);
      setPane('thread');
    },
  });

  // A first visit has no conversation yet: start one, so the composer is there to type into.
  const needsFirst = convs.isSuccess && list.length === 0 && projects.isSuccess;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the list is known to be empty
  useEffect(() => {
    if (needsFirst && create.isIdle) create.mutate(project);
  }, [needsFirst]);

  const send = async (out: Outgoing) => {
    if (!active) throw new Error('no conversation');
    const first =
      (qc.getQueryData<{ messages: Message[] }>(messagesKey(active.id))?.messages.length ?? 0) === 0;
    const { message, reply } = await api.send(active.id, out);
    // A conversation is named after its first message until someone renames it.
    const renamed =
      first && active.title === DEFAULT_TITLE
        ? api.renameConversation(active.id, titleFrom(out.text)).catch(() => undefined)
        : Promise.resolve(undefined);
    const placeholder: Message = {
      id: reply.id,
      role: 'assistant',
      text: '',
      wire: '',
      meta: {},
      at: message.at,
      status: 'streaming',
    };
    qc.setQueryData<{ messages: Message[] }>(messagesKey(active.id), (old) => ({
      messages: [...(old?.messages ?? []), message, placeholder],
    }));
    void renamed.then(() => qc.invalidateQueries({ queryKey: ['conversations'] }));
  };

  // Ctrl+P (⌘P on a Mac) opens quick open over the project, as in an editor; the browser's print stays on the menu.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        if (project) setQuickOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [project]);

  /** Shows a project file in the viewer and remembers it among the project's recent files. */
  const showFile = (rel: string, line?: number) => {
    setViewer(line ? { rel, line } : { rel });
    noteRecent(project, dirFullPath(rel, project));
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
            // A conversation keeps the project it was started in: another project starts another conversation.
            if (active?.project && active.project !== p) create.mutate(p);
          }}
        />
        <nav className="pane-tabs" aria-label="Panes">
          {(['chats', 'thread', 'files'] as const).map((p) => (
            <button key={p} type="button" aria-pressed={pane === p} onClick={() => setPane(p)}>
              {p === 'chats' ? 'Chats' : p === 'thread' ? 'Thread' : 'Files'}
            </button>
          ))}
        </nav>
      </header>
      <Sidebar
        conversations={list}
        activeId={active?.id ?? null}
        loading={convs.isPending}
        error={convs.isError ? (convs.error as Error).message : null}
        onSelect={(id) => {
          setActiveId(id);
          setPane('thread');
        }}
        onCreate={() => create.mutate(project)}
        creating={create.isPending}
      />
      <main className="main">
        {active ? (
          <>
            <div className="main-head">
              <h1 className="conv-title">{active.title || 'New conversation'}</h1>
              <span className="note" title={project}>
                {project ? project : 'no project'}
              </span>
            </div>
            <Thread
              conversationId={active.id}
              project={project}
              onFolderOpen={openFolder}
              onFileOpen={openFile}
            />
            <Composer
              key={active.id}
              conversationId={active.id}
              project={project}
              onSend={send}
              attach={attach}
            />
          </>
        ) : (
          <div className="thread thread-empty">{convs.isPending ? 'Loading…' : 'Start a conversation.'}</div>
        )}
        {viewer && project ? (
          <FileViewer project={project} rel={viewer.rel} line={viewer.line} onClose={() => setViewer(null)} />
        ) : null}
      </main>
      <FilesRail
        key={project}
        project={project}
        reveal={reveal}
        onAttach={active ? attachToMessage : undefined}
        onOpenFile={(rel, line) => {
          showFile(rel, line);
          setPane('thread');
        }}
      />
      {quickOpen && project ? (
        <QuickOpen
          project={project}
          onClose={() => setQuickOpen(false)}
          onOpen={(rel) => {
            setQuickOpen(false);
            showFile(rel);
            setPane('thread');
          }}
        />
      ) : null}
    </div>
  );
}
