/**
 * The reference name scorer, exactly as the reference wrote it. Kept as the floor our own
 * scorer is tested against and as a baseline in the ranking benchmark; trawl does not rank with it.
 *
 * `q` is already trimmed and lowercased; `rel` is the path relative to the search root.
 */
export function referenceFuzzyScore(q: string, name: string, rel: string): number {
  const n = name.toLowerCase();
  const r = rel.toLowerCase();
  const dot = n.lastIndexOf('.');
  const stem = dot >= 0 ? n.slice(0, dot) : n;
  let base: number;
  if (q === n || q === stem) base = 100;
  else if (n.startsWith(q)) base = 50;
  else if (n.includes(q)) base = 30;
  else if (r.includes(q)) base = 10;
  else {
    let matched = n;
    let run = greedyRun(q, n);
    if (run < 0) {
      matched = r;
      run = greedyRun(q, r);
      if (run < 0) return 0;
    }
    base = 5 + 15 * (run / q.length) + 5 * (q.length / Math.max(matched.length, 1));
  }
  return base + Math.max(0, 5 - 0.1 * n.length);
}

/** One greedy left-to-right pass; the longest run of consecutively consumed characters, or -1 if `q` is not consumed. */
function greedyRun(q: string, s: string): number {
  let qi = 0;
  let run = 0;
  let maxRun = 0;
  for (let i = 0; i < s.length; i++) {
    if (qi < q.length && s[i] === q[qi]) {
      qi++;
      run++;
      if (run > maxRun) maxRun = run;
    } else {
      run = 0;
    }
  }
  return qi === q.length ? maxRun : -1;
}
