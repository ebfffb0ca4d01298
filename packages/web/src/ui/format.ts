/** Compact figures for dense rows: sizes in B/kB/MB (decimal, like the study's locale formatter), relative ages. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = bytes / 1000;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u += 1;
  }
  return `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10}${units[u]}`;
}

/** `mtime` in epoch seconds → "now", "5m", "3h", "2d" under 30 days, else a short date. */
export function formatAge(mtimeSeconds: number, nowMs: number = Date.now()): string {
  if (!Number.isFinite(mtimeSeconds) || mtimeSeconds <= 0) return '';
  const s = Math.max(0, Math.round(nowMs / 1000 - mtimeSeconds));
  if (s < 60) return 'now';
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 30 * 86_400) return `${Math.floor(s / 86_400)}d`;
  return new Date(mtimeSeconds * 1000).toLocaleDateString('en', { month: 'short', day: 'numeric' });
}
