// Utilities and Blob: base64, digests, HMAC, UUIDs, sleep, formatDate, newBlob.
import { base64Decode, bytesOf, toSigned, utf8Decode } from './bytes.js';
import { enumOf, execInfo, getBridge, GasError } from './bridge.js';
import { formatDate } from './format-date.js';
import { base64Of, digestOf } from './native-bytes.js';

const DigestAlgorithm = enumOf(['MD2', 'MD5', 'SHA_1', 'SHA_256', 'SHA_384', 'SHA_512']);
const MacAlgorithm = enumOf(['HMAC_MD5', 'HMAC_SHA_1', 'HMAC_SHA_256', 'HMAC_SHA_384', 'HMAC_SHA_512']);
const Charset = enumOf(['US_ASCII', 'UTF_8']);

export class Blob {
  private bytes: number[];
  constructor(
    data: string | number[] = [],
    private contentType: string | null = null,
    private name: string | null = null,
  ) {
    this.bytes = bytesOf(data);
  }
  getBytes(): number[] {
    return toSigned(this.bytes);
  }
  setBytes(data: number[]): Blob {
    this.bytes = bytesOf(data);
    return this;
  }
  getDataAsString(charset?: string): string {
    return charset === 'US_ASCII' ? String.fromCharCode(...this.bytes.map((b) => b & 0x7f)) : utf8Decode(this.bytes);
  }
  setDataFromString(s: string): Blob {
    this.bytes = bytesOf(s);
    return this;
  }
  getContentType(): string | null {
    return this.contentType;
  }
  setContentType(t: string): Blob {
    this.contentType = t;
    return this;
  }
  getName(): string | null {
    return this.name;
  }
  setName(n: string): Blob {
    this.name = n;
    return this;
  }
  copyBlob(): Blob {
    return new Blob(this.bytes.slice(), this.contentType, this.name);
  }
  isGoogleType(): boolean {
    return false;
  }
  getAs(contentType: string): Blob {
    if (contentType !== this.contentType)
      throw new GasError(`Converting from ${this.contentType} to ${contentType} is not supported.`);
    return this.copyBlob();
  }
  getBlob(): Blob {
    return this;
  }
}

function digestName(alg: string): string {
  const map: Record<string, string> = {
    MD2: 'md2',
    MD5: 'md5',
    SHA_1: 'sha1',
    SHA_256: 'sha256',
    SHA_384: 'sha384',
    SHA_512: 'sha512',
  };
  const n = map[alg];
  if (!n) throw new GasError('Invalid argument: algorithm');
  return n;
}

function hmac(alg: string, value: string | number[], key: string | number[], charset?: string): number[] {
  const n = digestName(alg.replace(/^HMAC_/, ''));
  return base64Decode(getBridge().hmac(n, base64Of(value, charset), base64Of(key, charset)));
}

export const Utilities = {
  DigestAlgorithm,
  MacAlgorithm,
  Charset,
  sleep(ms: number): void {
    if (!(ms >= 0) || ms > 300000) throw new GasError('Invalid argument: milliseconds');
    getBridge().sleep(ms);
  },
  base64Encode(data: string | number[], charset?: string): string {
    getBridge().check();
    return base64Of(data, charset);
  },
  base64EncodeWebSafe(data: string | number[], charset?: string): string {
    getBridge().check();
    return base64Of(data, charset).replace(/\+/g, '-').replace(/\//g, '_');
  },
  base64Decode(text: string): number[] {
    getBridge().check();
    return base64Decode(text);
  },
  base64DecodeWebSafe(text: string): number[] {
    getBridge().check();
    return base64Decode(text);
  },
  computeDigest(alg: string, value: string | number[], charset?: string): number[] {
    getBridge().check();
    return base64Decode(digestOf(digestName(alg), value, charset));
  },
  computeHmacSha256Signature(value: string | number[], key: string | number[], charset?: string): number[] {
    getBridge().check();
    return hmac('HMAC_SHA_256', value, key, charset);
  },
  computeHmacSignature(alg: string, value: string | number[], key: string | number[], charset?: string): number[] {
    getBridge().check();
    return hmac(alg, value, key, charset);
  },
  getUuid(): string {
    getBridge().check();
    return getBridge().uuid();
  },
  formatDate(date: Date, timeZone: string, format: string): string {
    getBridge().check();
    try {
      return formatDate(date, timeZone, format);
    } catch (e) {
      throw new GasError((e as Error).message);
    }
  },
  formatString(template: string, ...args: unknown[]): string {
    let i = 0;
    return template.replace(/%[sdif%]/g, (m) =>
      m === '%%' ? '%' : String(m === '%d' || m === '%i' ? Math.trunc(Number(args[i++])) : args[i++]),
    );
  },
  newBlob(data: string | number[] = [], contentType?: string, name?: string): Blob {
    getBridge().check();
    return new Blob(data, contentType ?? null, name ?? null);
  },
  parseCsv(csv: string, delimiter = ','): string[][] {
    getBridge().check();
    const rows: string[][] = [];
    let row: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < csv.length; i++) {
      const ch = csv[i];
      if (quoted) {
        if (ch === '"' && csv[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === delimiter) {
        row.push(cell);
        cell = '';
      } else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && csv[i + 1] === '\n') i++;
        row.push(cell);
        rows.push(row);
        row = [];
        cell = '';
      } else cell += ch;
    }
    if (cell !== '' || row.length) {
      row.push(cell);
      rows.push(row);
    }
    return rows;
  },
};

export const Session = {
  getActiveUser() {
    return user(execInfo().user);
  },
  getEffectiveUser() {
    return user(execInfo().effectiveUser);
  },
  getScriptTimeZone(): string {
    return execInfo().timeZone;
  },
  getActiveUserLocale(): string {
    return execInfo().locale.split('_')[0];
  },
  getTemporaryActiveUserKey(): string {
    getBridge().check();
    return execInfo().activeUserKey;
  },
};

export function user(email: string) {
  return {
    getEmail(): string {
      getBridge().check();
      return email;
    },
    getUsername(): string {
      return email.split('@')[0];
    },
    toString(): string {
      return email;
    },
  };
}
