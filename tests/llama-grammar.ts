// llama.cpp's own JSON Schema → GBNF converters and grammar parsers, of an old release and the newest, for the tests.
// Older: b4291's JS converter (tests/fixtures/llama-cpp/b4291, the twin its server's C++ one is tested against) and
// its parser from the npm package llama-cpp-b4291. Newest: json_schema_to_grammar() and the parser from the package
// llama-cpp-newest, the converter reached through a shim compiled with g++ (tests/fixtures/llama-cpp/newest). No model
// is loaded: a grammar is parsed, and a text checked against it, as llama.cpp does while it samples.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const FIXTURES = path.join(__dirname, 'fixtures', 'llama-cpp');
const RELEASES = ['b4291', 'newest'] as const;
export type Release = (typeof RELEASES)[number];

// The packages (package.json's optionalDependencies) are built for Linux on x64 with glibc: elsewhere npm leaves them
// out and the tests that need them are skipped.
function glibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return Boolean(report?.header?.glibcVersionRuntime);
}
export const LLAMA_PLATFORM = process.platform === 'linux' && process.arch === 'x64' && glibc();

const resolver = createRequire(import.meta.url);
// The C++ compiler for the shim: g++ (Debian's package in .ci/run), or $CXX.
const CXX = process.env.CXX || 'g++';

// A package's bins/linux-x64, resolved by the name package.json's optionalDependencies give it.
function bins(release: Release): string {
  let main: string;
  try {
    main = release === 'b4291' ? resolver.resolve('llama-cpp-b4291') : resolver.resolve('llama-cpp-newest');
  } catch {
    throw new Error(
      `the optional dependency llama-cpp-${release} is not installed: run npm ci on Linux x64 with glibc (package.json)`,
    );
  }
  return path.join(path.dirname(path.dirname(main)), 'bins', 'linux-x64');
}

// A child's stderr cut at the "@@ <index>" lines the shim and parse-grammars.cjs write before each item.
function perItem(stderr: string, count: number): string[] {
  const out: string[] = Array.from({ length: count }, () => '');
  let at = -1;
  for (const line of stderr.split('\n')) {
    const m = /^@@ (\d+)$/.exec(line);
    if (m) at = Number(m[1]);
    else if (at >= 0 && line.trim()) out[at] += `${line.trim()}\n`;
  }
  return out.map((s) => s.trim());
}

function run(cmd: string, args: string[], input: string, what: string): string {
  const r = spawnSync(cmd, args, { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 120_000 });
  if (r.error) throw new Error(`${what} did not run: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${what} exited ${r.status ?? r.signal}: ${r.stderr.slice(0, 2000)}`);
  return r.stderr;
}

export interface SchemaCase {
  name: string;
  schema: unknown;
  // JSON texts to check against each grammar (whole texts: isTextCompatible accepts a text only when it completes
  // the grammar, not a prefix of one).
  texts?: string[];
}

export interface SchemaVerdict {
  name: string;
  // Why the schema does not convert whole, or a parser refuses a grammar of it; empty when it passes.
  problems: string[];
  grammars: Partial<Record<Release, string>>;
  // For each text: whether each converter's grammar, in each release's parser, accepts it, keyed
  // "<converter> grammar, <parser> parser".
  accepts: Record<string, boolean>[];
}

interface SchemaConverter {
  resolveRefs(schema: unknown, url: string): Promise<unknown>;
  visit(schema: unknown, name: string): string;
  formatGrammar(): string;
}

export class LlamaGrammar {
  private constructor(
    private readonly dir: string,
    private readonly shim: string,
    private readonly Converter: new (options: object) => SchemaConverter,
    private readonly addons: Record<Release, string>,
  ) {}

  // Compiles the newest converter's shim into a temporary directory (about a second and a half); throws, saying what
  // is missing, when a package or g++ is.
  static async open(): Promise<LlamaGrammar> {
    const lib = { b4291: bins('b4291'), newest: bins('newest') };
    const cxx = spawnSync(CXX, ['--version'], { encoding: 'utf8' });
    if (cxx.error || cxx.status !== 0)
      throw new Error(
        `${CXX} is needed to build the shim to llama.cpp's newest converter (apt-get install g++: .ci/run does)`,
      );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-llama-'));
    const shim = path.join(dir, 'convert-schemas');
    const src = path.join(FIXTURES, 'newest');
    // Linked after the source so the linker keeps the library, and found at run time through its rpath.
    try {
      run(
        CXX,
        [
          '-std=c++17',
          '-O0',
          `-I${src}`,
          path.join(src, 'convert-schemas.cpp'),
          '-o',
          shim,
          `-L${lib.newest}`,
          '-l:libllama-common.so',
          `-Wl,-rpath,${lib.newest}`,
        ],
        '',
        `${CXX} (the shim)`,
      );
    } catch (e) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    // A path in a variable: the vendored converter is plain JavaScript, imported as it is, with no types.
    const converter = pathToFileURL(path.join(FIXTURES, 'b4291', 'json-schema-to-grammar.mjs')).href;
    const { SchemaConverter } = await import(converter);
    const addons = {
      b4291: path.join(lib.b4291, 'llama-addon.node'),
      newest: path.join(lib.newest, 'llama-addon.node'),
    };
    return new LlamaGrammar(dir, shim, SchemaConverter, addons);
  }

  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  // b4291's converter, as its server's tests run it: it throws on what it cannot convert and warns of nothing.
  private async olderGrammars(cases: SchemaCase[]): Promise<{ grammar?: string; error?: string }[]> {
    const out: { grammar?: string; error?: string }[] = [];
    for (const c of cases) {
      try {
        const converter = new this.Converter({});
        const schema = await converter.resolveRefs(c.schema, '');
        converter.visit(schema, '');
        out.push({ grammar: converter.formatGrammar() });
      } catch (e) {
        out.push({ error: (e as Error).message });
      }
    }
    return out;
  }

  // The newest converter, every schema in one run of the shim; what it wrote on stderr for a schema is a warning
  // ("JSON schema conversion was incomplete: … accepting any string" when it dropped a pattern).
  private newestGrammars(cases: SchemaCase[]): { grammar?: string; error?: string; warning?: string }[] {
    const file = path.join(this.dir, `converted-${process.pid}-${Date.now()}.json`);
    const stderr = run(this.shim, [file], JSON.stringify(cases.map((c) => c.schema)), 'the newest converter');
    const results = JSON.parse(fs.readFileSync(file, 'utf8')) as { grammar?: string; error?: string }[];
    const warnings = perItem(stderr, cases.length);
    return results.map((r, i) => ({ ...r, warning: warnings[i] || undefined }));
  }

  // Every grammar in one release's parser, in a child process: llama.cpp says why it refused one on stderr, and a
  // crash in native code stays out of the test's worker.
  private parse(release: Release, jobs: { grammar: string; texts: string[] }[]) {
    const file = path.join(this.dir, `parsed-${release}-${process.pid}-${Date.now()}.json`);
    const args = [path.join(FIXTURES, 'parse-grammars.cjs'), this.addons[release], file];
    const stderr = run(process.execPath, args, JSON.stringify(jobs), `llama.cpp ${release}'s parser`);
    const results = JSON.parse(fs.readFileSync(file, 'utf8')) as { parsed: boolean; accepts?: boolean[] }[];
    // Its reason is the first line: the newer parser prints the whole grammar after it.
    const reasons = perItem(stderr, jobs.length).map((r) => r.split('\n')[0]);
    return results.map((r, i) => ({ ...r, reason: reasons[i] }));
  }

  // Each schema through both converters, and each grammar through both releases' parsers, with the texts.
  async check(cases: SchemaCase[]): Promise<SchemaVerdict[]> {
    const converted: Record<Release, { grammar?: string; error?: string; warning?: string }[]> = {
      b4291: await this.olderGrammars(cases),
      newest: this.newestGrammars(cases),
    };
    const verdicts: SchemaVerdict[] = cases.map((c) => ({
      name: c.name,
      problems: [],
      grammars: {},
      accepts: (c.texts ?? []).map(() => ({})),
    }));
    const jobs: { grammar: string; texts: string[]; at: number; converter: Release }[] = [];
    for (const converter of RELEASES)
      converted[converter].forEach((r, at) => {
        const v = verdicts[at];
        if (r.error !== undefined) v.problems.push(`${converter} converter: ${r.error}`);
        if (r.warning) v.problems.push(`${converter} converter: ${r.warning}`);
        if (r.grammar === undefined) return;
        v.grammars[converter] = r.grammar;
        jobs.push({ grammar: r.grammar, texts: cases[at].texts ?? [], at, converter });
      });
    for (const parser of RELEASES) {
      const parsed = this.parse(
        parser,
        jobs.map(({ grammar, texts }) => ({ grammar, texts })),
      );
      parsed.forEach((p, k) => {
        const { at, converter } = jobs[k];
        const v = verdicts[at];
        if (!p.parsed) v.problems.push(`${parser} parser refuses the ${converter} converter's grammar: ${p.reason}`);
        else (p.accepts ?? []).forEach((ok, t) => (v.accepts[t][`${converter} grammar, ${parser} parser`] = ok));
      });
    }
    return verdicts;
  }
}

// A value as JSON text in the order a grammar of its schema asks for: an object's required properties in the schema's
// order, then its optional ones (llama.cpp's converters write objects so), with no whitespace.
export function jsonText(value: unknown, schema: unknown): string {
  return JSON.stringify(ordered(value, schema as Shape));
}

interface Shape {
  properties?: Record<string, Shape>;
  required?: string[];
  items?: Shape;
  anyOf?: Shape[];
}

function ordered(value: unknown, s: Shape | undefined): unknown {
  if (!s) return value;
  if (Array.isArray(value)) return value.map((x) => ordered(x, s.items ?? s.anyOf?.find((a) => a.items)?.items));
  if (!value || typeof value !== 'object') return value;
  const own = s.properties ? s : s.anyOf?.find((a) => a.properties);
  if (!own?.properties) return value;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(own.properties);
  const required = own.required ?? [];
  const order = [...keys.filter((k) => required.includes(k)), ...keys.filter((k) => !required.includes(k))];
  const out: Record<string, unknown> = {};
  for (const k of order) if (k in v) out[k] = ordered(v[k], own.properties[k]);
  return out;
}
