import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactCredentials } from '@trawl/core/redact';
import {
  CONVERSATION_MAX_BYTES,
  CONVERSATION_META_MAX_BYTES,
  CONVERSATION_TITLE_MAX_CHARS,
  MAX_CONVERSATIONS,
} from './limits.js';
import type { Conversation, Message } from './types.js';

/** The conversations directory, relative to the data directory. */
export const CONVERSATIONS_DIR = 'conversations';

/** A new message would take the conversation's file past its cap. */
export class ConversationFullError extends Error {
  readonly code = 'conversation_full';
  constructor() {
    super('this conversation is full; start a new one');
  }
}
/** The conversation is not (or no longer) in the store. */
export class UnknownConversationError extends Error {
  readonly code = 'unknown_conversation';
  constructor() {
    super('no such conversation');
  }
}
/** One conversation more than the store keeps. */
export class TooManyConversationsError extends Error {
  readonly code = 'too_many_conversations';
  constructor() {
    super(`at most ${MAX_CONVERSATIONS} conversations are kept`);
  }
}

const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Ids are the store's own UUIDs: anything else names no conversation (and never reaches the filesystem). */
export function isConversationId(id: string): boolean {
  return ID_RE.test(id);
}

export interface ConversationStoreOptions {
  dataDir: string;
  now?: () => Date;
  /** Secrets redacted from everything written (the server's token, besides the credential patterns). */
  literals?: readonly string[];
}

/**
 * Conversations on disk, in `<data-dir>/conversations/`: per conversation a small `<id>.json` (id, title, project,
 * times), replaced atomically (temp file, fsync, rename), and a `<id>.jsonl` of messages, APPENDED with fsync.
 *
 * Why append, not temp + rename, for messages: a conversation grows one message at a time, and rewriting the whole
 * file per message is quadratic in its length; an append touches only the new line. Its one failure mode, a crash
 * in the middle of a write, leaves a torn last line: the reader skips any line that does not parse (only the last
 * one can be torn), and the next append first ends such a line, so nothing after it is lost. A message is a full
 * record; a reply is written when it starts (`streaming`) and again when it ends, and the last record of an id
 * wins. Titles, text, wire and a failed reply's error are redacted (credential patterns and the server's token)
 * before they are written.
 */
export class ConversationStore {
  private readonly dir: string;
  private readonly now: () => Date;
  private lastStamp = 0;
  private loaded: Map<string, Conversation> | undefined;
  private loading: Promise<Map<string, Conversation>> | undefined;
  /** Per-conversation write queue: appends and meta replacements never interleave. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly options: ConversationStoreOptions) {
    this.dir = path.join(options.dataDir, CONVERSATIONS_DIR);
    this.now = options.now ?? (() => new Date());
  }

  /** Conversations, most recently updated first. */
  async list(): Promise<Conversation[]> {
    const all = [...(await this.index()).values()];
    return all.sort((a, b) =>
      a.updated_at === b.updated_at ? (a.id < b.id ? 1 : -1) : a.updated_at < b.updated_at ? 1 : -1,
    );
  }

  async get(id: string): Promise<Conversation | undefined> {
    if (!isConversationId(id)) return undefined;
    return (await this.index()).get(id);
  }

  async create(input: { title?: string; project?: string | null }): Promise<Conversation> {
    const index = await this.index();
    if (index.size >= MAX_CONVERSATIONS) throw new TooManyConversationsError();
    const at = this.stamp();
    const c: Conversation = {
      id: randomUUID(),
      title: this.cleanTitle(input.title) || 'New conversation',
      project: input.project ?? null,
      created_at: at,
      updated_at: at,
    };
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.serial(c.id, () => this.writeMeta(c));
    index.set(c.id, c);
    return c;
  }

  async rename(id: string, title: string): Promise<Conversation | undefined> {
    const c = await this.get(id);
    if (!c) return undefined;
    const next = { ...c, title: this.cleanTitle(title) || c.title, updated_at: this.stamp() };
    await this.serial(id, () => this.writeMeta(next));
    (await this.index()).set(id, next);
    return next;
  }

  /**
   * Deletes a conversation: its meta and its messages. False for an unknown id. An append still queued for it (a
   * reply finishing) then finds no conversation and writes nothing.
   */
  async remove(id: string): Promise<boolean> {
    if (!(await this.get(id))) return false;
    (await this.index()).delete(id);
    await this.serial(id, async () => {
      await fs.promises.rm(path.join(this.dir, `${id}.json`), { force: true });
      await fs.promises.rm(this.messagesFile(id), { force: true });
    });
    return true;
  }

  /** The conversation's messages in order (the last record of each id), or undefined for an unknown id. */
  async messages(id: string): Promise<Message[] | undefined> {
    if (!(await this.get(id))) return undefined;
    let text: string;
    try {
      text = await fs.promises.readFile(this.messagesFile(id), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const byId = new Map<string, Message>();
    for (const line of text.split('\n')) {
      if (!line) continue;
      let m: unknown;
      try {
        m = JSON.parse(line);
      } catch {
        continue; // a torn line (a crash mid-append)
      }
      if (isMessage(m)) byId.set(m.id, m);
    }
    return [...byId.values()];
  }

  /**
   * Appends a message record (redacted) and returns what was written. With `reserve`, refuses when the file would
   * then have less than `reserve` bytes left under the cap (room for the reply that follows a user message).
   */
  async append(id: string, message: Message, reserve = 0): Promise<Message> {
    const stored = this.redacted(message);
    const line = `${JSON.stringify(stored)}\n`;
    await this.serial(id, async () => {
      // Deleted meanwhile: a file created now would outlive its conversation.
      if (!(await this.index()).has(id)) throw new UnknownConversationError();
      const file = this.messagesFile(id);
      const handle = await fs.promises.open(
        file,
        fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND,
        0o600,
      );
      try {
        const { size } = await handle.stat();
        if (size + Buffer.byteLength(line) + reserve > CONVERSATION_MAX_BYTES)
          throw new ConversationFullError();
        let prefix = '';
        if (size > 0) {
          const last = Buffer.alloc(1);
          await handle.read(last, 0, 1, size - 1);
          if (last[0] !== 0x0a) prefix = '\n'; // end a torn line before writing after it
        }
        await handle.writeFile(prefix + line);
        await handle.sync();
      } finally {
        await handle.close();
      }
      const c = (await this.index()).get(id);
      if (c) {
        const next = { ...c, updated_at: this.stamp() };
        await this.writeMeta(next);
        (await this.index()).set(id, next);
      }
    });
    return stored;
  }

  /** A strictly increasing timestamp: two changes in one millisecond still order the list. */
  private stamp(): string {
    let t = this.now().getTime();
    if (t <= this.lastStamp) t = this.lastStamp + 1;
    this.lastStamp = t;
    return new Date(t).toISOString();
  }

  /** A message as it is written: text, wire and a failure's message (the agent's stderr) redacted. */
  redacted(message: Message): Message {
    return {
      ...message,
      text: this.redact(message.text),
      wire: this.redact(message.wire),
      ...(message.error ? { error: { ...message.error, error: this.redact(message.error.error) } } : {}),
    };
  }

  private redact(text: string): string {
    return redactCredentials(text, { literals: this.options.literals ?? [] }).text;
  }

  /** A title as it is kept: redacted first (a clip could cut a secret into a stub no pattern knows), then one row. */
  private cleanTitle(title: string | undefined): string {
    // Control characters would only garble a sidebar row.
    return this.redact(title ?? '')
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, CONVERSATION_TITLE_MAX_CHARS);
  }

  private messagesFile(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }

  /** Replaces `<id>.json` atomically: a reader sees the old file or the new one, never a mix. */
  private async writeMeta(c: Conversation): Promise<void> {
    const file = path.join(this.dir, `${c.id}.json`);
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await fs.promises.open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(c));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  private serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(id) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => {});
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return run;
  }

  /** The conversations on disk, read once (then kept current by this store's own writes). */
  private index(): Promise<Map<string, Conversation>> {
    if (this.loaded) return Promise.resolve(this.loaded);
    this.loading ??= this.load().then((m) => {
      this.loaded = m;
      return m;
    });
    return this.loading;
  }

  private async load(): Promise<Map<string, Conversation>> {
    const out = new Map<string, Conversation>();
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch {
      return out;
    }
    for (const name of names) {
      if (!name.endsWith('.json') || !isConversationId(name.slice(0, -5))) continue;
      try {
        const file = path.join(this.dir, name);
        const st = await fs.promises.lstat(file);
        if (!st.isFile() || st.size > CONVERSATION_META_MAX_BYTES) continue;
        const c: unknown = JSON.parse(await fs.promises.readFile(file, 'utf8'));
        if (isConversation(c) && c.id === name.slice(0, -5)) out.set(c.id, c);
      } catch {
        // not one of ours, or half-written by something else: skipped
      }
      if (out.size >= MAX_CONVERSATIONS) break;
    }
    return out;
  }
}

function isConversation(x: unknown): x is Conversation {
  const c = x as Conversation;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.id === 'string' &&
    typeof c.title === 'string' &&
    (c.project === null || typeof c.project === 'string') &&
    typeof c.created_at === 'string' &&
    typeof c.updated_at === 'string'
  );
}

function isMessage(x: unknown): x is Message {
  const m = x as Message;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.id === 'string' &&
    (m.role === 'user' || m.role === 'assistant') &&
    typeof m.text === 'string' &&
    typeof m.wire === 'string' &&
    typeof m.meta === 'object' &&
    m.meta !== null &&
    typeof m.at === 'string'
  );
}
