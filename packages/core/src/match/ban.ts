import type { ClassExpr, Hir } from './hir.js';

/**
 * ripgrep refuses a pattern in which some part must match a NUL byte while binary detection is on: a
 * NUL either ends the search or makes the file binary, so the pattern could never match. Like rg, this
 * looks at every literal and at classes of exactly one character, wherever they sit (`foo\x00?` too).
 */
export function mustMatchNul(hir: Hir): boolean {
  switch (hir.t) {
    case 'lit':
      return hir.cp === 0;
    case 'class':
      return isNulOnly(hir.e);
    case 'rep':
    case 'group':
      return mustMatchNul(hir.sub);
    case 'cat':
    case 'alt':
      return hir.items.some(mustMatchNul);
    default:
      return false;
  }
}

function isNulOnly(e: ClassExpr): boolean {
  if (e.t === 'fold') return isNulOnly(e.e);
  if (e.t !== 'set' || e.atoms.length !== 1) return false;
  const a = e.atoms[0]!;
  return a.t === 'range' && a.lo === 0 && a.hi === 0;
}
