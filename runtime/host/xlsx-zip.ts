// Reads the parts of an .xlsx package (a zip archive) as text, for the workbook reader in xlsx-read.ts, and zips
// text parts into one (xlsx-write.ts).
import zlib, { deflateRawSync, inflateRawSync } from 'node:zlib';
import { FormatError } from './format-errors.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const utf8 = new TextDecoder('utf-8', { fatal: true });

interface Entry {
  method: number;
  compressed: number;
  size: number;
  offset: number;
}

// The package's parts by name. A part is inflated only when asked for, so unused ones (images, themes) cost nothing.
export class XlsxPackage {
  private readonly entries = new Map<string, Entry>();
  private readonly names: string[] = [];

  constructor(
    private readonly bytes: Buffer,
    readonly file: string,
  ) {
    const end = this.findEnd();
    const count = bytes.readUInt16LE(end + 10);
    let p = bytes.readUInt32LE(end + 16);
    if (count === 0xffff || p === 0xffffffff) this.fail('a ZIP64 archive, which no spreadsheet program writes');
    for (let i = 0; i < count; i++) {
      if (p + 46 > bytes.length || bytes.readUInt32LE(p) !== CENTRAL) this.fail('a damaged zip directory');
      const nameLen = bytes.readUInt16LE(p + 28);
      const name = bytes
        .toString('utf8', p + 46, p + 46 + nameLen)
        .replace(/\\/g, '/')
        .replace(/^\//, '');
      this.names.push(name);
      this.entries.set(name.toLowerCase(), {
        method: bytes.readUInt16LE(p + 10),
        compressed: bytes.readUInt32LE(p + 20),
        size: bytes.readUInt32LE(p + 24),
        offset: bytes.readUInt32LE(p + 42),
      });
      p += 46 + nameLen + bytes.readUInt16LE(p + 30) + bytes.readUInt16LE(p + 32);
    }
  }

  // The parts' names as the archive spells them.
  partNames(): string[] {
    return this.names.slice();
  }

  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  // A part's text; part names are matched without regard to case, as Excel does.
  text(name: string): string {
    const e = this.entries.get(name.toLowerCase());
    if (!e) this.fail(`no part ${name}`);
    const b = this.bytes;
    if (b.readUInt32LE(e.offset) !== LOCAL) this.fail(`a damaged zip entry for ${name}`);
    const start = e.offset + 30 + b.readUInt16LE(e.offset + 26) + b.readUInt16LE(e.offset + 28);
    const raw = b.subarray(start, start + e.compressed);
    let data: Buffer;
    if (e.method === 0) data = raw;
    else if (e.method === 8) data = inflateRawSync(raw);
    else this.fail(`${name} is compressed with method ${e.method}, which is not deflate`);
    if (data.length !== e.size) this.fail(`${name} inflates to ${data.length} bytes, not the ${e.size} recorded`);
    try {
      // A byte-order mark is not part of the XML text.
      return utf8.decode(data).replace(/^\uFEFF/, '');
    } catch {
      this.fail(`${name} is not UTF-8`);
    }
  }

  private findEnd(): number {
    const b = this.bytes;
    // The end record is 22 bytes plus a comment of at most 65,535.
    for (let p = b.length - 22; p >= Math.max(0, b.length - 22 - 0xffff); p--) if (b.readUInt32LE(p) === EOCD) return p;
    this.fail('not a zip archive (an .xlsx file is one)');
  }

  fail(problem: string): never {
    throw new FormatError(this.file, 'the workbook', problem);
  }
}

// zlib.crc32 is in Node from 20.15 and 22.2; before, a table.
let table: Int32Array | undefined;
function crc32(b: Buffer): number {
  const native = (zlib as { crc32?: (data: Buffer) => number }).crc32;
  if (native) return native(b);
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < b.length; i++) c = table[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

// A zip archive of text parts, deflated (zlib's, natively), with UTF-8 names; in the order given.
export function zipParts(parts: Record<string, string>): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(parts)) {
    const data = Buffer.from(text, 'utf8');
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const nameBytes = Buffer.from(name, 'utf8');
    // The local header and the directory entry share a run of fields: UTF-8 names, deflate, CRC, sizes, name length.
    const fields = (b: Buffer, at: number) => {
      b.writeUInt16LE(0x0800, at);
      b.writeUInt16LE(8, at + 2);
      b.writeUInt32LE(crc, at + 8);
      b.writeUInt32LE(packed.length, at + 12);
      b.writeUInt32LE(data.length, at + 16);
      b.writeUInt16LE(nameBytes.length, at + 20);
    };
    const head = Buffer.alloc(30);
    head.writeUInt32LE(LOCAL, 0);
    head.writeUInt16LE(20, 4);
    fields(head, 6);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(CENTRAL, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    fields(dir, 8);
    dir.writeUInt32LE(offset, 42);
    local.push(head, nameBytes, packed);
    central.push(dir, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, dirBytes, end]);
}
