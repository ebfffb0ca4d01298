/**
 * Per-conversation drafts in the browser (`localStorage['trawl.draft.<conversation id>']`): the text (folders ride
 * along as tokens) and the files the picker staged (a file chip needs its absolute path, which the token alone
 * does not carry). The server never sees a draft.
 */
import type { PickedFile } from '../tokens/wire.js';

export interface Draft {
  text: string;
  picked: PickedFile[];
}

/** How many picked files a draft remembers: enough to restage cut-and-pasted tokens, bounded in storage. */
const MAX_PICKED = 50;

export const draftKey = (conversationId: string): string => `trawl.draft.${conversationId}`;

export function loadDraft(conversationId: string): Draft {
  try {
    const raw = localStorage.getItem(draftKey(conversationId));
    if (raw === null) return { text: '', picked: [] };
    const v = JSON.parse(raw) as Partial<Draft>;
    const picked = Array.isArray(v.picked)
      ? v.picked.filter(
          (p): p is PickedFile => !!p && typeof p.rel === 'string' && typeof p.path === 'string',
        )
      : [];
    return { text: typeof v.text === 'string' ? v.text : '', picked };
  } catch {
    return { text: '', picked: [] };
  }
}

export function saveDraft(conversationId: string, draft: Draft): void {
  try {
    if (draft.text === '') localStorage.removeItem(draftKey(conversationId));
    else
      localStorage.setItem(
        draftKey(conversationId),
        JSON.stringify({ text: draft.text, picked: draft.picked.slice(-MAX_PICKED) }),
      );
  } catch {
    // storage full or disabled: the draft lives only in this page
  }
}
