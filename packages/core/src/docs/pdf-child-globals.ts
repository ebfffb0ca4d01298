// What pdf.js needs from the process before it loads, in the PDF extractor child (pdf-child.ts imports this first).
//
// pdf.js reports through console.log; the child's stdout is its protocol, so that chatter goes to stderr.
// pdf.js's display layer builds a DOMMatrix when it loads and, in Node, borrows one from the optional
// @napi-rs/canvas renderer. trawl only extracts text, so the renderer is not installed (it is most of pdf.js's
// install size): a 2-D affine matrix with the few members pdf.js's text and glyph code reaches stands in.
console.log = (...args: unknown[]) => console.error(...args);

/** The 2-D subset of DOMMatrix: `[a b c d e f]` maps (x, y) to (a·x + c·y + e, b·x + d·y + f). */
class AffineMatrix {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;

  constructor(init?: ArrayLike<number>) {
    if (init && init.length >= 6) {
      [this.a, this.b, this.c, this.d, this.e, this.f] = Array.from(init).slice(0, 6) as [
        number,
        number,
        number,
        number,
        number,
        number,
      ];
    }
  }

  multiplySelf(m: AffineMatrix): this {
    const { a, b, c, d, e, f } = this;
    this.a = a * m.a + c * m.b;
    this.b = b * m.a + d * m.b;
    this.c = a * m.c + c * m.d;
    this.d = b * m.c + d * m.d;
    this.e = a * m.e + c * m.f + e;
    this.f = b * m.e + d * m.f + f;
    return this;
  }

  scaleSelf(sx = 1, sy = sx): this {
    return this.multiplySelf(new AffineMatrix([sx, 0, 0, sy, 0, 0]));
  }

  translateSelf(tx = 0, ty = 0): this {
    return this.multiplySelf(new AffineMatrix([1, 0, 0, 1, tx, ty]));
  }
}

const g = globalThis as { DOMMatrix?: unknown };
g.DOMMatrix ??= AffineMatrix;
