/** A button that copies a text to the clipboard and says so for a moment ("Copied"), for eyes and screen readers. */
import { useEffect, useState } from 'react';
import { CopyIcon } from './icons.js';

const SAID_MS = 1500;

/** Copies with the Clipboard API, or, where it is refused, through a selected off-screen textarea. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // not a secure context, or permission refused: the old way below
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.className = 'offscreen';
  document.body.append(ta);
  ta.select();
  const ok = document.execCommand('copy');
  ta.remove();
  if (!ok) throw new Error('the browser refused to copy');
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!said) return;
    const t = setTimeout(() => setSaid(null), SAID_MS);
    return () => clearTimeout(t);
  }, [said]);
  return (
    <button
      type="button"
      className="ghost small copy"
      aria-label={label}
      title={label}
      onClick={() =>
        void copyText(text).then(
          () => setSaid('copied'),
          () => setSaid('failed'),
        )
      }
    >
      <CopyIcon />
      <span aria-live="polite">
        {said === 'copied' ? 'Copied' : said === 'failed' ? 'Not copied' : 'Copy'}
      </span>
    </button>
  );
}
