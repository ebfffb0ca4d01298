import type yauzl from 'yauzl';
import { type MemberReadEnd, type OfficeZip, streamMemberText } from './zip.js';

/** Callbacks for one XML member, by local element name (prefixes vary between producers: `w:p`, `ns0:p`). */
export interface XmlHandlers {
  open?(name: string, attrs: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

/**
 * Streams an XML member through htmlparser2 in XML mode (entities decoded), chunk by chunk as it inflates.
 * `keepGoing` is asked after every chunk (deadline, character cap, a found match); false stops the inflation.
 */
export async function parseXmlMember(
  office: OfficeZip,
  entry: yauzl.Entry,
  handlers: XmlHandlers,
  keepGoing: () => boolean,
): Promise<MemberReadEnd> {
  const { Parser } = await import('htmlparser2');
  const parser = new Parser(
    {
      onopentag: handlers.open ? (name, attrs) => handlers.open!(localName(name), attrs) : undefined,
      ontext: handlers.text ? (t) => handlers.text!(t) : undefined,
      onclosetag: handlers.close ? (name) => handlers.close!(localName(name)) : undefined,
    },
    { xmlMode: true, decodeEntities: true },
  );
  const end = await streamMemberText(office, entry, (text) => {
    parser.write(text);
    return keepGoing();
  });
  if (end === 'end') parser.end();
  return end;
}

function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}
