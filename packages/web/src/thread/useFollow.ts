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
  // Where following (or the reader, at the bottom) last left the box: scrollTop as the browser clamped it.
  const followedTo = useRef(0);

  const setBoth = useCallback((p: boolean) => {
    if (pinnedRef.current === p) return;
    pinnedRef.current = p;
    setPinned(p);
  }, []);

  const jump = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    followedTo.current = el.scrollTop;
    setBoth(true);
  }, [scroller, setBoth]);

  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    const toBottom = () => {
      el.scrollTop = el.scrollHeight;
      followedTo.current = el.scrollTop;
    };
    // Only the reader's scrolling unpins. A scroll event also comes after we followed, and by the time it is
    // dispatched the content may have grown again (chunks painted in between): the box is then short of the bottom
    // but no higher than where we put it, so it is our scroll, still pinned, and follows on. Higher than that, and
    // not within the slack of the bottom, it is the reader's.
    const onScroll = () => {
      const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_PX;
      if (pinnedRef.current && !atBottom && el.scrollTop >= followedTo.current) toBottom();
      else {
        if (atBottom) followedTo.current = el.scrollTop;
        setBoth(atBottom);
      }
    };
    // Content grew (a chunk painted, a message added, code highlighted) or the box was resized: follow if pinned;
    // else see whether the bottom came into view (the content shrank).
    const follow = () => {
      if (pinnedRef.current) toBottom();
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
