/**
 * Keeps a scrolling box pinned to its bottom while its content grows, as long as the reader is at the bottom; once
 * they scroll up it leaves them where they are (`pinned` false) until they come back down or `jump`.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/** How near the bottom (px) still counts as at the bottom: a sub-pixel scroll position or a stray wheel tick. */
const AT_BOTTOM_PX = 24;

export function useFollow(
  scroller: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
): { pinned: boolean; jump: () => void } {
  const [pinned, setPinned] = useState(true);
  const pinnedRef = useRef(true);

  const setBoth = useCallback((p: boolean) => {
    if (pinnedRef.current === p) return;
    pinnedRef.current = p;
    setPinned(p);
  }, []);

  const jump = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    setBoth(true);
  }, [scroller, setBoth]);

  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    // Only the reader's scrolling unpins: a scroll event comes after they moved, or after we followed (at bottom).
    const onScroll = () => setBoth(el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_PX);
    // Content grew (a chunk painted, a message added, code highlighted) or the box was resized: follow if pinned;
    // else see whether the bottom came into view (the content shrank).
    const follow = () => {
      if (pinnedRef.current) el.scrollTop = el.scrollHeight;
      else onScroll();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = new ResizeObserver(follow);
    ro.observe(inner);
    ro.observe(el);
    follow();
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro.disconnect();
    };
  }, [scroller, content, setBoth]);

  return { pinned, jump };
}
