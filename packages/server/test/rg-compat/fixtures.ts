/**
 * Haystacks of ripgrep's integration tests, rebuilt: the `SHERLOCK` paragraph its tests search (from
 * A Study in Scarlet, public domain) and a stand-in for its `sherlock-nul.txt`, built to the same shape —
 * 2 133 lines, a NUL on line 1870 well past the first 64 KiB, the lines its binary tests look for.
 */
export const SHERLOCK = `For the Doctor Watsons of this world, as opposed to the Sherlock
Holmeses, success in the province of detective work must always
be, to a very large extent, the result of luck. Sherlock Holmes
can extract a clew from a wisp of straw or a flake of cigar ash;
but Doctor Watson has to have it taken out for him and dusted,
and exhibited clearly, with a label attached.
`;

/** SHERLOCK with CRLF line ends (ripgrep's SHERLOCK_CRLF). */
export const SHERLOCK_CRLF = SHERLOCK.replace(/\n/g, '\r\n');

export function sherlockNul(): Buffer {
  const lines: string[] = [];
  for (let n = 1; n <= 2133; n++) {
    if (n === 1) lines.push('The Project Gutenberg EBook of A Study In Scarlet, by Arthur Conan Doyle');
    else if (n % 233 === 176 && n < 1867) lines.push('"A medical student, I suppose?" said I.');
    else if (n === 1867) lines.push('"And yet you say he is not a medical student?"');
    else if (n === 1870) lines.push('abcdef\0');
    else if (n === 1871) lines.push('"No. Heaven knows what the objects of his studies are. But here we');
    else lines.push(`line ${n} of the haystack, where nothing is to be found`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** UTF-16LE with a byte-order mark (ripgrep's f1_utf16_auto). */
export const UTF16_SHERLOCK = Buffer.concat([
  Buffer.from([0xff, 0xfe]),
  Buffer.from('Шерлок Холмс', 'utf16le'),
]);

/** A UTF-16 BOM then a NUL: transcoded, the NUL is gone (f1207_auto_encoding). */
export const UTF16_NUL = Buffer.from([0xff, 0xfe, 0x00, 0x62]);
