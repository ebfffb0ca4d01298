/**
 * xxHash32 (Yann Collet's XXH32), written from the published algorithm description. Used for the 4-digit
 * hashline tags, which must equal what other hashline tools compute for the same content.
 */

const PRIME1 = 0x9e3779b1;
const PRIME2 = 0x85ebca77;
const PRIME3 = 0xc2b2ae3d;
const PRIME4 = 0x27d4eb2f;
const PRIME5 = 0x165667b1;

function rotl(x: number, r: number): number {
  return ((x << r) | (x >>> (32 - r))) >>> 0;
}

function round(acc: number, lane: number): number {
  return Math.imul(rotl((acc + Math.imul(lane, PRIME2)) >>> 0, 13), PRIME1) >>> 0;
}

function readU32(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
}

export function xxHash32(input: Uint8Array, seed = 0): number {
  const len = input.length;
  let i = 0;
  let h: number;
  if (len >= 16) {
    let v1 = (seed + PRIME1 + PRIME2) >>> 0;
    let v2 = (seed + PRIME2) >>> 0;
    let v3 = seed >>> 0;
    let v4 = (seed - PRIME1) >>> 0;
    const limit = len - 16;
    while (i <= limit) {
      v1 = round(v1, readU32(input, i));
      v2 = round(v2, readU32(input, i + 4));
      v3 = round(v3, readU32(input, i + 8));
      v4 = round(v4, readU32(input, i + 12));
      i += 16;
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
  } else {
    h = (seed + PRIME5) >>> 0;
  }
  h = (h + len) >>> 0;
  while (i + 4 <= len) {
    h = Math.imul(rotl((h + Math.imul(readU32(input, i), PRIME3)) >>> 0, 17), PRIME4) >>> 0;
    i += 4;
  }
  while (i < len) {
    h = Math.imul(rotl((h + Math.imul(input[i]!, PRIME5)) >>> 0, 11), PRIME1) >>> 0;
    i++;
  }
  h ^= h >>> 15;
  h = Math.imul(h, PRIME2) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, PRIME3) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}
