import { StringDecoder } from 'node:string_decoder';
import type yauzl from 'yauzl';
import { nextZipEntry } from '../util/zip-entries.js';
import {
  DOC_ZIP_MAX_MEMBER_BYTES,
  DOC_ZIP_MAX_MEMBERS,
  DOC_ZIP_MAX_RATIO,
  DOC_ZIP_MAX_TOTAL_BYTES,
  DOC_ZIP_RATIO_MIN_BYTES,
} from './limits.js';

/** The caps a zip container is vetted against before anything is inflated. */
export interface ZipLimits {
  maxMembers: number;
  maxTotalBytes: number;
  maxMemberBytes: number;
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxMembers: DOC_ZIP_MAX_MEMBERS,
  maxTotalBytes: DOC_ZIP_MAX_TOTAL_BYTES,
  maxMemberBytes: DOC_ZIP_MAX_MEMBER_BYTES,
  maxRatio: DOC_ZIP_MAX_RATIO,
};

/**
 * The container is not one this layer will inflate. `vet`: it is a zip, refused by a cap (members, declared
 * sizes, ratio) — its text was never searched, so the document counts as skipped (a hostile file could hide
 * behind a cap otherwise); `unreadable`: not a zip at all — a settled answer, as a file pdf.js rejects is.
 */
export class ZipRefused extends Error {
  constructor(
    readonly reason: string,
    readonly kind: 'vet' | 'unreadable' = 'vet',
  ) {
    super(reason);
    this.name = 'ZipRefused';
  }
}

/** An Office container opened from memory, its central directory read and vetted. */
export interface OfficeZip {
  /** Members by name. */
  members: ReadonlyMap<string, yauzl.Entry>;
  zip: yauzl.ZipFile;
  close(): void;
}

/**
 * Opens a zip held in memory and vets its inventory before a byte is inflated: the member count (from the end
 * record, so a million-entry directory is refused without being listed), then every member's declared size and
 * compression ratio, then the declared total. yauzl checks each member against its declared size while inflating,
 * so the declared caps are the real ones.
 */
export async function openOfficeZip(
  bytes: Buffer,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<OfficeZip> {
  const { default: zipLib } = await import('yauzl');
  let zip: yauzl.ZipFile;
  try {
    zip = await zipLib.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  } catch (err) {
    throw new ZipRefused(`not a readable zip: ${(err as Error).message}`, 'unreadable');
  }
  const close = () => zip.close();
  try {
    if (zip.entryCount > limits.maxMembers)
      throw new ZipRefused(`${zip.entryCount} members (at most ${limits.maxMembers})`);
    const members = new Map<string, yauzl.Entry>();
    let total = 0;
    for (;;) {
      const entry = await nextZipEntry(zip);
      if (entry === null) break;
      if (members.size >= limits.maxMembers) throw new ZipRefused(`more than ${limits.maxMembers} members`);
      const size = entry.uncompressedSize;
      if (size > limits.maxMemberBytes)
        throw new ZipRefused(
          `member ${entry.fileName} declares ${size} bytes (at most ${limits.maxMemberBytes})`,
        );
      if (size > DOC_ZIP_RATIO_MIN_BYTES && size > entry.compressedSize * limits.maxRatio)
        throw new ZipRefused(
          `member ${entry.fileName} compresses ${Math.round(size / Math.max(1, entry.compressedSize))}:1`,
        );
      total += size;
      if (total > limits.maxTotalBytes)
        throw new ZipRefused(`members declare more than ${limits.maxTotalBytes} bytes together`);
      members.set(entry.fileName, entry);
    }
    return { members, zip, close };
  } catch (err) {
    close();
    if (err instanceof ZipRefused) throw err;
    throw new ZipRefused(`not a readable zip: ${(err as Error).message}`, 'unreadable');
  }
}

/** How reading a member ended: read to its end, stopped by the consumer, or failed part-way. */
export type MemberReadEnd = 'end' | 'stopped' | 'failed';

/**
 * Streams one member as text (UTF-8) to `onText`, chunk by chunk; `onText` returning false stops the inflation
 * there (the rest is never decompressed). Never throws: a member that fails part-way answers 'failed' after
 * delivering what it had.
 */
export async function streamMemberText(
  office: OfficeZip,
  entry: yauzl.Entry,
  onText: (text: string) => boolean,
): Promise<MemberReadEnd> {
  let stream: NodeJS.ReadableStream & { destroy(): void };
  try {
    if (entry.isEncrypted()) return 'failed';
    stream = (await office.zip.openReadStreamPromise(entry)) as typeof stream;
  } catch {
    return 'failed';
  }
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!onText(decoder.write(chunk))) {
        stream.destroy();
        return 'stopped';
      }
    }
  } catch {
    return 'failed';
  }
  const rest = decoder.end();
  if (rest && !onText(rest)) return 'stopped';
  return 'end';
}
