import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import {
  CONVERSATION_TITLE_MAX_CHARS,
  MESSAGE_MAX_META_ENTRIES,
  MESSAGE_MAX_META_STRING_CHARS,
  MESSAGE_MAX_TEXT_CHARS,
  MESSAGE_MAX_WIRE_CHARS,
} from '../conversations/limits.js';
import type { Replies, ReplyEvent } from '../conversations/replies.js';
import {
  ConversationFullError,
  type ConversationStore,
  TooManyConversationsError,
  UnknownConversationError,
} from '../conversations/store.js';
import type { Message } from '../conversations/types.js';
import type {
  ConversationResponse,
  ConversationsResponse,
  DeleteConversationResponse,
  MessagesResponse,
  ReplyStreamEvents,
  RetryResponse,
  SendMessageResponse,
  StopResponse,
} from '../wire.js';
import type { ServerContext } from './context.js';
import { MAX_PATH_PARAM_CHARS, SSE_HEARTBEAT_MS } from './limits.js';

export interface ConversationsDeps {
  store: ConversationStore;
  replies: Replies;
  /** Silence after which a reply stream sends a keep-alive comment (default `SSE_HEARTBEAT_MS`; tests). */
  heartbeatMs?: number;
}

const metaString = z.string().max(MESSAGE_MAX_META_STRING_CHARS);
/** composer.md's wire meta: files and folders, each at most 100; unknown keys are dropped, not stored. */
const metaSchema = z.object({
  files: z
    .array(z.object({ path: metaString, name: metaString }))
    .max(MESSAGE_MAX_META_ENTRIES)
    .optional(),
  dirs: z
    .array(z.object({ path: metaString, label: metaString }))
    .max(MESSAGE_MAX_META_ENTRIES)
    .optional(),
});
const createSchema = z.object({
  title: z
    .string()
    .max(CONVERSATION_TITLE_MAX_CHARS * 4)
    .optional(),
  project: z.string().max(MAX_PATH_PARAM_CHARS).nullable().optional(),
});
const renameSchema = z.object({ title: z.string().max(CONVERSATION_TITLE_MAX_CHARS * 4) });
const messageSchema = z.object({
  text: z.string().max(MESSAGE_MAX_TEXT_CHARS),
  wire: z.string().max(MESSAGE_MAX_WIRE_CHARS),
  meta: metaSchema.optional(),
});

/** Room kept in a conversation's file for the reply to each user message (the agent's output cap, JSON-escaped). */
const REPLY_RESERVE_BYTES = 2 * 1024 * 1024 + 4096;

type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** The JSON body against a schema: not JSON → 400 `invalid_json`; wrong shape → 400 `invalid_request`. */
async function body<T>(c: Context, schema: z.ZodType<T>): Promise<Parsed<T>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return { ok: false, response: c.json({ error: 'the body must be JSON', code: 'invalid_json' }, 400) };
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return {
      ok: false,
      response: c.json(
        { error: `${where}${issue?.message ?? 'invalid request'}`, code: 'invalid_request' },
        400,
      ),
    };
  }
  return { ok: true, value: r.data };
}

const unknownConversation = (c: Context) =>
  c.json({ error: 'no such conversation', code: 'unknown_conversation' }, 404);
const unknownMessage = (c: Context) => c.json({ error: 'no such message', code: 'unknown_message' }, 404);

/** A reply on disk still `streaming` with no run behind it was cut off by a restart: it is `failed`. */
function settled(m: Message, replies: Replies): Message {
  if (m.status !== 'streaming') return m;
  const live = replies.liveText(m.id);
  if (live !== undefined) return { ...m, text: live };
  return {
    ...m,
    status: 'failed',
    error: { code: 'interrupted', error: 'the server stopped while this reply was being written' },
  };
}

/** The conversation routes (docs/http-api.md "Conversations"), registered on the app. */
export function conversationRoutes(ctx: ServerContext, deps: ConversationsDeps) {
  const heartbeatMs = deps.heartbeatMs ?? SSE_HEARTBEAT_MS;
  const { store, replies } = deps;
  return {
    async list(c: Context) {
      const conversations = await store.list();
      ctx.audit.record({
        operation: 'conversations',
        outcome: 'allowed',
        resources: `count=${conversations.length}`,
      });
      return c.json({ conversations } satisfies ConversationsResponse);
    },

    async create(c: Context) {
      const b = await body(c, createSchema);
      if (!b.ok) return b.response;
      let project: string | null = null;
      if (b.value.project) {
        const known = await ctx.projects.match(b.value.project);
        if (known === undefined) {
          ctx.audit.record({
            operation: 'conversation_create',
            outcome: 'denied',
            resources: b.value.project,
            error: 'not a known project directory',
          });
          return c.json({ error: 'Unknown project directory', code: 'unknown_project_dir' }, 403);
        }
        project = known;
      }
      try {
        const conversation = await store.create({
          ...(b.value.title ? { title: b.value.title } : {}),
          project,
        });
        ctx.audit.record({
          operation: 'conversation_create',
          outcome: 'allowed',
          resources: `conversation=${conversation.id} project=${project ?? ''}`,
        });
        return c.json({ conversation } satisfies ConversationResponse, 201);
      } catch (err) {
        if (err instanceof TooManyConversationsError)
          return c.json({ error: err.message, code: err.code }, 409);
        throw err;
      }
    },

    async rename(c: Context) {
      const id = c.req.param('id') ?? '';
      if (!(await store.get(id))) return unknownConversation(c);
      const b = await body(c, renameSchema);
      if (!b.ok) return b.response;
      const conversation = await store.rename(id, b.value.title);
      if (!conversation) return unknownConversation(c);
      ctx.audit.record({
        operation: 'conversation_rename',
        outcome: 'allowed',
        resources: `conversation=${id}`,
      });
      return c.json({ conversation } satisfies ConversationResponse);
    },

    async messages(c: Context) {
      const id = c.req.param('id') ?? '';
      const messages = await store.messages(id);
      if (!messages) return unknownConversation(c);
      ctx.audit.record({
        operation: 'messages',
        outcome: 'allowed',
        resources: `conversation=${id} count=${messages.length}`,
      });
      return c.json({ messages: messages.map((m) => settled(m, replies)) } satisfies MessagesResponse);
    },

    async send(c: Context) {
      const OP = 'message_send';
      const id = c.req.param('id') ?? '';
      const conversation = await store.get(id);
      if (!conversation) return unknownConversation(c);
      const b = await body(c, messageSchema);
      if (!b.ok) return b.response;
      const meta = b.value.meta ?? {};
      if (!b.value.text.trim() && !b.value.wire.trim()) {
        return c.json({ error: 'the message is empty', code: 'empty_message' }, 400);
      }
      if (replies.busy(id)) {
        return c.json(
          { error: 'a reply is still being written; stop it first', code: 'reply_in_progress' },
          409,
        );
      }
      if (replies.full()) {
        ctx.audit.record({
          operation: OP,
          outcome: 'failure',
          resources: `conversation=${id}`,
          error: 'agent_busy',
        });
        return c.json(
          { error: 'too many replies are being written; retry shortly', code: 'agent_busy' },
          429,
        );
      }
      let message: Message;
      try {
        message = await store.append(
          id,
          {
            id: crypto.randomUUID(),
            role: 'user',
            text: b.value.text,
            wire: b.value.wire,
            meta,
            at: new Date().toISOString(),
          },
          REPLY_RESERVE_BYTES,
        );
      } catch (err) {
        if (err instanceof ConversationFullError) {
          ctx.audit.record({
            operation: OP,
            outcome: 'denied',
            resources: `conversation=${id}`,
            error: err.code,
          });
          return c.json({ error: err.message, code: err.code }, 413);
        }
        throw err;
      }
      const replyId = await replies.start(id, conversation.project, {
        id: message.id,
        wire: message.wire,
        meta,
      });
      ctx.audit.record({
        operation: OP,
        outcome: 'allowed',
        resources: `conversation=${id} message=${message.id} reply=${replyId} chars=${b.value.text.length} files=${meta.files?.length ?? 0} dirs=${meta.dirs?.length ?? 0}`,
      });
      return c.json({ message, reply: { id: replyId } } satisfies SendMessageResponse, 201);
    },

    async stream(c: Context) {
      const id = c.req.param('id') ?? '';
      const mid = c.req.param('mid') ?? '';
      if (!(await store.get(id))) return unknownConversation(c);
      const queue: ReplyEvent[] = [];
      let wake: (() => void) | undefined;
      const sub = replies.subscribe(id, mid, (e) => {
        queue.push(e);
        wake?.();
      });
      if (!sub) {
        const m = (await store.messages(id))?.find((x) => x.id === mid && x.role === 'assistant');
        if (!m) return unknownMessage(c);
        const done = settled(m, replies);
        // The reply finished between the subscription attempt and the read: replay it whole.
        return streamSSE(c, async (stream) => {
          if (done.text)
            await stream.writeSSE({
              event: 'chunk',
              data: JSON.stringify({ text: done.text } satisfies ReplyStreamEvents['chunk']),
            });
          if (done.status === 'failed' && done.error) {
            await stream.writeSSE({
              event: 'error',
              data: JSON.stringify(done.error satisfies ReplyStreamEvents['error']),
            });
          } else
            await stream.writeSSE({
              event: 'done',
              data: JSON.stringify({ message: done } satisfies ReplyStreamEvents['done']),
            });
        });
      }
      return streamSSE(c, async (stream) => {
        let aborted = false;
        stream.onAbort(() => {
          aborted = true;
          sub.unsubscribe();
          wake?.();
        });
        if (sub.text)
          await stream.writeSSE({
            event: 'chunk',
            data: JSON.stringify({ text: sub.text } satisfies ReplyStreamEvents['chunk']),
          });
        while (!aborted) {
          const e = queue.shift();
          if (!e) {
            let timer: NodeJS.Timeout | undefined;
            const quiet = await new Promise<boolean>((r) => {
              wake = () => r(false);
              timer = setTimeout(() => r(true), heartbeatMs);
            });
            clearTimeout(timer);
            wake = undefined;
            if (quiet && !aborted) await stream.write(': keep-alive\n\n');
            continue;
          }
          if (e.type === 'chunk')
            await stream.writeSSE({
              event: 'chunk',
              data: JSON.stringify({ text: e.text } satisfies ReplyStreamEvents['chunk']),
            });
          else {
            if (e.type === 'done')
              await stream.writeSSE({
                event: 'done',
                data: JSON.stringify({ message: e.message } satisfies ReplyStreamEvents['done']),
              });
            else
              await stream.writeSSE({
                event: 'error',
                data: JSON.stringify({ code: e.code, error: e.error } satisfies ReplyStreamEvents['error']),
              });
            break;
          }
        }
        sub.unsubscribe();
      });
    },

    /**
     * Runs the agent again on what the conversation's latest reply answered (its user message's wire text and
     * meta): Retry after a failure or a stop, Regenerate after a finished reply. The new attempt is a new reply; the
     * old one is kept, marked `superseded_by` it.
     */
    async retry(c: Context) {
      const OP = 'message_retry';
      const id = c.req.param('id') ?? '';
      const mid = c.req.param('mid') ?? '';
      const conversation = await store.get(id);
      if (!conversation) return unknownConversation(c);
      const all = (await store.messages(id)) ?? [];
      const current = all.filter((m) => !m.superseded_by);
      const at = current.findIndex((m) => m.id === mid && m.role === 'assistant');
      if (at < 0) return unknownMessage(c);
      if (at !== current.length - 1) {
        return c.json({ error: 'only the latest reply can be run again', code: 'not_latest_reply' }, 409);
      }
      if (replies.busy(id)) {
        return c.json(
          { error: 'a reply is still being written; stop it first', code: 'reply_in_progress' },
          409,
        );
      }
      if (replies.full()) {
        return c.json(
          { error: 'too many replies are being written; retry shortly', code: 'agent_busy' },
          429,
        );
      }
      const old = settled(current[at]!, replies);
      const user =
        current.find((m) => m.id === old.reply_to && m.role === 'user') ??
        current
          .slice(0, at)
          .reverse()
          .find((m) => m.role === 'user');
      if (!user) return c.json({ error: 'this reply answers no message', code: 'unknown_message' }, 404);
      let replyId: string;
      try {
        replyId = await replies.start(id, conversation.project, user);
        await store.append(id, { ...old, superseded_by: replyId });
      } catch (err) {
        if (err instanceof ConversationFullError) return c.json({ error: err.message, code: err.code }, 413);
        if (err instanceof UnknownConversationError) return unknownConversation(c);
        throw err;
      }
      ctx.audit.record({
        operation: OP,
        outcome: 'allowed',
        resources: `conversation=${id} message=${user.id} replaces=${old.id} reply=${replyId}`,
      });
      return c.json({ reply: { id: replyId }, replaces: old.id } satisfies RetryResponse, 201);
    },

    /** Deletes a conversation; a reply being written for it is stopped first. */
    async remove(c: Context) {
      const id = c.req.param('id') ?? '';
      const conversation = await store.get(id);
      if (!conversation) return unknownConversation(c);
      const running = (await store.messages(id))?.find((m) => m.status === 'streaming');
      if (running) replies.stop(id, running.id);
      await store.remove(id);
      ctx.audit.record({
        operation: 'conversation_delete',
        outcome: 'allowed',
        resources: `conversation=${id}`,
      });
      return c.json({ deleted: true } satisfies DeleteConversationResponse);
    },

    async stop(c: Context) {
      const id = c.req.param('id') ?? '';
      const mid = c.req.param('mid') ?? '';
      if (!(await store.get(id))) return unknownConversation(c);
      const stopped = replies.stop(id, mid);
      if (!stopped) {
        const known = (await store.messages(id))?.some((m) => m.id === mid && m.role === 'assistant');
        if (!known) return unknownMessage(c);
      }
      ctx.audit.record({
        operation: 'agent_stop',
        outcome: 'allowed',
        resources: `conversation=${id} message=${mid} running=${stopped}`,
      });
      return c.json({ stopped } satisfies StopResponse);
    },
  };
}
