/**
 * Keyboard movement through a list of search hits in the Files rail: every `.hit` button the list shows, in order,
 * nested ones (a file's lines) included.
 */

/**
 * Up and Down move focus through the list's hits (Home/End to its ends), Up from the first back to the rail's search
 * field; Enter opens the focused hit, as a click would (it is a button).
 */
export function moveAmongHits(e: React.KeyboardEvent<HTMLElement>) {
  const hits = [...e.currentTarget.querySelectorAll<HTMLElement>('.hit')];
  const at = hits.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  let to: HTMLElement | null | undefined;
  if (e.key === 'ArrowDown') to = hits[at + 1];
  else if (e.key === 'ArrowUp')
    to =
      at === 0
        ? e.currentTarget.closest('.rail')?.querySelector<HTMLElement>('input[type="search"]')
        : hits[at - 1];
  else if (e.key === 'Home') to = hits[0];
  else if (e.key === 'End') to = hits[hits.length - 1];
  else return;
  e.preventDefault();
  to?.focus();
}
