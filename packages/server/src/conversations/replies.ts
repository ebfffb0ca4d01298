import { randomUUID } from 'node:crypto';
import type { AuditSink } from '../audit/index.js';
import { type AgentCommand, type AgentEnd, runAgent } from './agent.js';
import { AgentWatchdog } from './agent-watchdog.js';
import { type AgentPayload, type ProjectAccess, previewText, readAttachments } from './attachments.js';
import { AGENT_KILL_GRACE_MS, AGENT_MAX_RUNNING } from './limits.js';
import { type ConversationStore, UnknownConversationError } from './store.js';
import type { Message, MessageMeta } from './types.js';

/** What a reply stream carries: text as it comes, then exactly one `done` or `error`. */
export type ReplyEvent =
  | { type: 'chunk'; text: string }
  | { type: 'done'; message: Message }
  | { type: 'error'; code: string; error: string; message: Message };

interface Run {
  conversationId: string;
  messageId: string;
  /** The user message being answered. */
  replyTo: string;
  text: string;
  listeners: Set<(e: ReplyEvent) => void>;
  stopRequested: boolean;
  stop?: () => void;
  finished: Promise<void>;
}

export interface RepliesOptions {
  store: ConversationStore;
  /** The known projects, their roots and files. */
  projects: ProjectAccess;
  audit: AuditSink;
  /** Operational log (stderr). */
  log: (line: string) => void;
  /** The operator's `--agent`; absent: each reply previews the payload. */
  agent?: AgentCommand;
  /** The agent's environment (the server's, without its token). */
  agentEnv: Record<string, string | undefined>;
  /** The agent's working directory when the conversation has no project. */
  defaultCwd: string;
}

/**
 * The replies being produced, in memory: one run per conversation at a time, at most {@link AGENT_MAX_RUNNING}
 * at once. Each run reads the attachments, runs the agent (or the preview), streams its text to subscribers,
 * and writes the finished reply to the store (where a stream opened later replays it from).
 */
export class Replies {
  private readonly runs = new Map<string, Run>();
  private readonly byConversation = new Map<string, string>();
  /** Kills the agents' groups if this process dies without doing so (started with the first run). */
  private readonly watchdog: AgentWatchdog | undefined;

  constructor(private readonly o: RepliesOptions) {
    if (o.agent)
      this.watchdog = new AgentWatchdog(o.agent.killGraceMs ?? AGENT_KILL_GRACE_MS, (line) => o.log(line));
  }

  busy(conversationId: string): boolean {
    return this.byConversation.has(conversationId);
  }

  full(): boolean {
    return this.runs.size >= AGENT_MAX_RUNNING;
  }

  /** The live text of a reply still being produced, if it is. */
  liveText(messageId: string): string | undefined {
    return this.runs.get(messageId)?.text;
  }

  /**
   * Starts the reply to a user message: writes its `streaming` record, then runs in the background. The caller
   * checked {@link busy} and {@link full}. Returns the reply's id.
   */
  async start(
    conversationId: string,
    project: string | null,
    user: { id: string; wire: string; meta: MessageMeta },
  ): Promise<string> {
    const messageId = randomUUID();
    await this.o.store.append(conversationId, {
      id: messageId,
      role: 'assistant',
      text: '',
      wire: '',
      meta: {},
      at: new Date().toISOString(),
      status: 'streaming',
      reply_to: user.id,
    });
    let resolveFinished!: () => void;
    const run: Run = {
      conversationId,
      messageId,
      replyTo: user.id,
      text: '',
      listeners: new Set(),
      stopRequested: false,
      finished: new Promise((r) => {
        resolveFinished = r;
      }),
    };
    this.runs.set(messageId, run);
    this.byConversation.set(conversationId, messageId);
    const emit = (text: string) => {
      run.text += text;
      for (const l of run.listeners) l({ type: 'chunk', text });
    };
    void this.produce(run, project, user, emit)
      .catch((err: unknown): AgentEnd => {
        this.o.log(`trawl serve: reply ${messageId} failed: ${(err as Error).stack ?? String(err)}`);
        return { outcome: 'failed', code: 'internal', error: 'internal error' };
      })
      .then((end) => this.finish(run, end))
      .finally(resolveFinished);
    return messageId;
  }

  private async produce(
    run: Run,
    project: string | null,
    user: { id: string; wire: string; meta: MessageMeta },
    emit: (text: string) => void,
  ): Promise<AgentEnd> {
    const roots = await this.o.projects.roots(project);
    const files = await readAttachments(this.o.projects, user.meta.files, roots);
    const root = project ? (roots.find((r) => r.project === project)?.root ?? null) : null;
    const payload: AgentPayload = { text: user.wire, meta: user.meta, project: root, files };
    if (run.stopRequested) return { outcome: 'stopped' };
    if (!this.o.agent) {
      emit(previewText(payload));
      return { outcome: 'done', exitCode: 0 };
    }
    const agent = runAgent(this.o.agent, {
      cwd: root ?? this.o.defaultCwd,
      env: { ...this.o.agentEnv, ...(root ? { TRAWL_PROJECT_DIR: root } : {}) },
      input: JSON.stringify(payload),
      onText: emit,
      ...(this.watchdog ? { groups: this.watchdog } : {}),
    });
    run.stop = agent.stop;
    return agent.ended;
  }

  private async finish(run: Run, end: AgentEnd): Promise<void> {
    const status = end.outcome;
    const failure = end.outcome === 'failed' ? { code: end.code, error: end.error } : undefined;
    // Redacted here too: the stream's subscribers get what is stored even when storing fails.
    let message: Message = this.o.store.redacted({
      id: run.messageId,
      role: 'assistant',
      text: run.text,
      wire: '',
      meta: {},
      at: new Date().toISOString(),
      status,
      reply_to: run.replyTo,
      ...(failure ? { error: failure } : {}),
    });
    try {
      message = await this.o.store.append(run.conversationId, message);
    } catch (err) {
      // A conversation deleted while its reply ran has nowhere to keep it, as intended.
      if (!(err instanceof UnknownConversationError))
        this.o.log(`trawl serve: could not store reply ${run.messageId}: ${(err as Error).message}`);
    }
    this.o.audit.record({
      operation: 'agent_run',
      outcome: status === 'failed' ? 'failure' : 'allowed',
      resources: `conversation=${run.conversationId} message=${run.messageId} agent=${this.o.agent ? 'command' : 'preview'} chars=${run.text.length} status=${status}${end.outcome === 'done' || end.outcome === 'failed' ? ` exit=${'exitCode' in end ? end.exitCode : ''}` : ''}`,
      ...(failure ? { error: `${failure.code}: ${failure.error}` } : {}),
    });
    this.runs.delete(run.messageId);
    this.byConversation.delete(run.conversationId);
    const event: ReplyEvent = message.error
      ? { type: 'error', ...message.error, message }
      : { type: 'done', message };
    for (const l of run.listeners) l(event);
    run.listeners.clear();
  }

  /**
   * Subscribes to a running reply: the text so far (taken in the same tick as the subscription, so nothing is
   * missed or doubled) and an unsubscribe. `undefined` when the reply is not running (read it from the store).
   */
  subscribe(
    conversationId: string,
    messageId: string,
    listener: (e: ReplyEvent) => void,
  ): { text: string; unsubscribe: () => void } | undefined {
    const run = this.runs.get(messageId);
    if (!run || run.conversationId !== conversationId) return undefined;
    run.listeners.add(listener);
    return { text: run.text, unsubscribe: () => run.listeners.delete(listener) };
  }

  /** Stops a running reply (kills the agent's process group). False when it is not running. */
  stop(conversationId: string, messageId: string): boolean {
    const run = this.runs.get(messageId);
    if (!run || run.conversationId !== conversationId) return false;
    run.stopRequested = true;
    run.stop?.();
    return true;
  }

  /** Stops every run and waits until each has been written (server shutdown). */
  async close(): Promise<void> {
    const all = [...this.runs.values()];
    for (const r of all) {
      r.stopRequested = true;
      r.stop?.();
    }
    await Promise.all(all.map((r) => r.finished));
    this.watchdog?.close();
  }
}
