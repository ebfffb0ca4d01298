/**
 * Offsets between a decoded string and the bytes it came from. Decoding follows the WHATWG UTF-8 decoder
 * (what Buffer#toString uses): each maximal invalid subsequence becomes one U+FFFD. Only needed for lines
 * that are not valid UTF-8; everything else uses Buffer.byteLength.
 */

/** Byte length of the UTF-8 sequence a lead byte starts, 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Allowed range of the second byte after `lead` (tighter than 80..BF for E0, ED, F0, F4). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/**
 * Decodes one code point (or one replacement) at `pos`: returns the bytes consumed and the UTF-16
 * units produced.
 */
function step(bytes: Uint8Array, pos: number, end: number): { bytes: number; units: number } {
  const lead = bytes[pos]!;
  const len = sequenceLength(lead);
  if (len === 1) return { bytes: 1, units: 1 };
  if (len === 0) return { bytes: 1, units: 1 };
  let consumed = 1;
  for (let k = 1; k < len; k++) {
    if (pos + k >= end) return { bytes: consumed, units: 1 };
    const b = bytes[pos + k]!;
    const [lo, hi] = k === 1 ? secondByteRange(lead) : [0x80, 0xbf];
    if (b < lo || b > hi) return { bytes: consumed, units: 1 };
    consumed++;
  }
  return { bytes: len, units: len === 4 ? 2 : 1 };
}

/** Maps UTF-16 indices of `bytes` decoded (lossily) to byte offsets; `indices` must be ascending. */
export function utf16IndicesToByteOffsets(bytes: Uint8Array, indices: number[]): number[] {
  const out: number[] = [];
  let unit = 0;
  let pos = 0;
  let k = 0;
  while (k < indices.length) {
    const target = indices[k]!;
    if (unit >= target || pos >= bytes.length) {
      out.push(pos);
      k++;
      continue;
    }
    const s = step(bytes, pos, bytes.length);
    pos += s.bytes;
    unit += s.units;
  }
  return out;
}

/**
 * UTF-8 byte offsets (from `from`) of the UTF-16 `indices` of valid text, which must not decrease: one
 * pass over the text however many indices there are (a minified line can hold thousands of matches).
 */
export function utf8OffsetsOf(text: string, from: number, indices: readonly number[]): number[] {
  const out: number[] = [];
  let i = from;
  let bytes = 0;
  for (const target of indices) {
    for (; i < target; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < target) {
        bytes += 4; // a surrogate pair: one 4-byte sequence
        i++;
      } else bytes += 3;
    }
    out.push(bytes);
  }
  return out;
}

/** The largest byte index ≤ `limit` that does not split a UTF-8 sequence. */
export function charBoundaryAtOrBefore(bytes: Uint8Array, start: number, limit: number): number {
  let cut = limit;
  // Back off continuation bytes, at most 3 (a sequence is at most 4 bytes long).
  for (let k = 0; k < 3 && cut > start && (bytes[cut]! & 0xc0) === 0x80; k++) cut--;
  return cut;
}
