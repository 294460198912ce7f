#!/usr/bin/env node
// Type-checks exported request bodies against the providers' own TypeScript
// definitions (the official `openai` and `@anthropic-ai/sdk` packages).
//
//   node tests/wire/check.mjs --out DIR FILE.requests.jsonl...
//
// Each line of each file, `{"provider": …, "request": {…}, "response": {…}}`,
// becomes one constant in DIR/requests.ts, typed as the SDK's parameter type
// for a non-streaming create call:
//   chat       ChatCompletionCreateParamsNonStreaming  (openai/resources/chat/completions)
//   responses  ResponseCreateParamsNonStreaming        (openai/resources/responses/responses)
//   anthropic  MessageCreateParamsNonStreaming         (@anthropic-ai/sdk/resources/messages)
// and, where the line says `"status": 200`, its response a second constant,
// typed as what the SDK returns from that call: ChatCompletion, Response
// (less `output_text`, which the SDK adds to the object; the wire has no
// such field) and Message.
// A request that says `"stream": true` is typed as the streaming create
// call's parameters instead (…CreateParamsStreaming), and the line's
// `stream`, the events that brought the response, as a list of the SDK's
// stream event type: ChatCompletionChunk, ResponseStreamEvent and
// RawMessageStreamEvent.
// A typed object literal gets TypeScript's excess-property check, so a wrong
// field name fails as surely as a wrong type or a missing field. One file,
// one `tsc --strict --noEmit` run; each error is told back as the JSONL file,
// its line and the JSON path of the value, followed by tsc's own words.
// `--generate-only` writes the files without running tsc.
// Exit: 0 all bodies type-check, 1 type errors, 2 bad input or no tsc.
// No dependencies beyond Node itself and the packages in package.json.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

// The SDK type of a request body per provider, and where it is exported.
export const PROVIDERS = {
  chat: {
    type: "ChatCompletionCreateParamsNonStreaming",
    streaming: "ChatCompletionCreateParamsStreaming",
    event: "ChatCompletionChunk",
    from: "openai/resources/chat/completions",
    response: "ChatCompletion",
    responseType: "ChatCompletion",
  },
  responses: {
    type: "ResponseCreateParamsNonStreaming",
    streaming: "ResponseCreateParamsStreaming",
    event: "ResponseStreamEvent",
    // The events that carry the whole response carry it as the wire does,
    // without the SDK's own `output_text`.
    eventType: "ResponsesWireEvent",
    eventTypeSource:
      'type ResponsesWireEvent = ResponseStreamEvent extends infer E ? (E extends { response: Response } ? Omit<E, "response"> & { response: Omit<Response, "output_text"> } : E) : never;',
    from: "openai/resources/responses/responses",
    response: "Response",
    responseType: 'Omit<Response, "output_text">',
  },
  anthropic: {
    type: "MessageCreateParamsNonStreaming",
    streaming: "MessageCreateParamsStreaming",
    event: "RawMessageStreamEvent",
    from: "@anthropic-ai/sdk/resources/messages",
    response: "Message",
    responseType: "Message",
  },
};

class InputError extends Error {}

function usage() {
  return "usage: node tests/wire/check.mjs [--generate-only] --out DIR FILE.jsonl...";
}

function parseArgs(argv) {
  const files = [];
  let out = null;
  let generateOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--out") {
      out = argv[++i];
      if (!out) throw new InputError(`--out needs a folder\n${usage()}`);
    } else if (a === "--generate-only") {
      generateOnly = true;
    } else if (a.startsWith("--")) {
      throw new InputError(`unknown option ${a}\n${usage()}`);
    } else {
      files.push(a);
    }
  }
  if (!out || files.length === 0) throw new InputError(usage());
  return { files, out, generateOnly };
}

// A JSON path step: `.name` for identifier keys, `["…"]` otherwise.
function key(k) {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
}

// Writes TypeScript source and remembers, for every line it writes, the JSON
// path of the value that line holds, so a tsc error line leads back to it.
class Writer {
  constructor() {
    this.lines = [];
    this.origins = []; // per line: null, or {file, line, provider, path}
  }
  push(text, origin = null) {
    this.lines.push(text);
    this.origins.push(origin);
  }
  // One JSON value pretty-printed, one property or element per line.
  value(v, indent, prefix, suffix, where, path) {
    const pad = "  ".repeat(indent);
    const at = { ...where, path };
    if (Array.isArray(v)) {
      if (v.length === 0) return this.push(`${pad}${prefix}[]${suffix}`, at);
      this.push(`${pad}${prefix}[`, at);
      v.forEach((item, i) =>
        this.value(item, indent + 1, "", i + 1 < v.length ? "," : "", where, `${path}[${i}]`),
      );
      return this.push(`${pad}]${suffix}`, at);
    }
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v);
      if (entries.length === 0) return this.push(`${pad}${prefix}{}${suffix}`, at);
      this.push(`${pad}${prefix}{`, at);
      entries.forEach(([k, item], i) =>
        this.value(
          item,
          indent + 1,
          `${JSON.stringify(k)}: `,
          i + 1 < entries.length ? "," : "",
          where,
          `${path}${key(k)}`,
        ),
      );
      return this.push(`${pad}}${suffix}`, at);
    }
    // Strings, numbers, booleans and null are the same in JSON and TS.
    return this.push(`${pad}${prefix}${JSON.stringify(v)}${suffix}`, at);
  }
}

// Reads the JSONL files into {file, line, provider, request} records.
export function readRecords(files) {
  const records = [];
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new InputError(`${file}: cannot read: ${e.message}`);
    }
    text.split("\n").forEach((raw, i) => {
      const line = i + 1;
      if (raw.trim() === "") return;
      let record;
      try {
        record = JSON.parse(raw);
      } catch (e) {
        throw new InputError(`${file}:${line}: not JSON: ${e.message}`);
      }
      if (record === null || typeof record !== "object" || Array.isArray(record)) {
        throw new InputError(`${file}:${line}: expected an object {"provider", "request", "response"}`);
      }
      const provider = record.provider;
      if (!Object.hasOwn(PROVIDERS, provider)) {
        throw new InputError(
          `${file}:${line}: $.provider: expected one of ${Object.keys(PROVIDERS).join(", ")}, found ${JSON.stringify(provider)}`,
        );
      }
      if (record.request === null || typeof record.request !== "object" || Array.isArray(record.request)) {
        throw new InputError(`${file}:${line}: $.request: expected the request body, an object`);
      }
      // A response is checked where the line says it came with a 200.
      const response =
        record.status === 200 && record.response !== null && typeof record.response === "object"
          ? record.response
          : null;
      // A streamed response's events, where the line has them.
      const stream = response && Array.isArray(record.stream) ? record.stream : null;
      records.push({ file, line, provider, request: record.request, response, stream });
    });
  }
  return records;
}

// Does the request ask for a stream?
function streamed(r) {
  return r.request.stream === true;
}

// The TypeScript source for the records, and the origin of each of its lines.
export function generate(records) {
  const w = new Writer();
  w.push("// Generated by tests/wire/check.mjs from exported JSONL; do not edit.");
  for (const [name, p] of Object.entries(PROVIDERS)) {
    const mine = records.filter((r) => r.provider === name);
    const names = [
      mine.some((r) => !streamed(r)) && p.type,
      mine.some(streamed) && p.streaming,
      mine.some((r) => r.response) && p.response,
      mine.some((r) => r.stream) && p.event,
    ].filter(Boolean);
    if (names.length > 0) {
      w.push(`import type { ${names.join(", ")} } from ${JSON.stringify(p.from)};`);
    }
    if (p.eventTypeSource && mine.some((r) => r.stream)) w.push(p.eventTypeSource);
  }
  records.forEach((r, n) => {
    const where = { file: r.file, line: r.line, provider: r.provider };
    const p = PROVIDERS[r.provider];
    w.push("");
    w.push(`// ${r.file}:${r.line} (${r.provider})`);
    w.value(
      r.request,
      0,
      `export const request_${n + 1}: ${streamed(r) ? p.streaming : p.type} = `,
      ";",
      where,
      "$.request",
    );
    if (r.stream) {
      w.value(r.stream, 0, `export const stream_${n + 1}: ${p.eventType ?? p.event}[] = `, ";", where, "$.stream");
    }
    if (r.response) {
      w.value(
        r.response,
        0,
        `export const response_${n + 1}: ${PROVIDERS[r.provider].responseType} = `,
        ";",
        where,
        "$.response",
      );
    }
  });
  w.push("");
  return w;
}

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: "es2022",
    module: "preserve",
    moduleResolution: "bundler",
    types: [],
    // The SDKs' own .d.ts files are theirs to check; ours is the bodies.
    skipLibCheck: true,
  },
  files: ["requests.ts"],
};

// tsc's `file(line,col): error TSnnnn: message` lines (and the indented
// lines that elaborate each), told back as the JSONL line and JSON path.
export function explain(output, w, tsFile) {
  const errors = [];
  for (const raw of output.split("\n")) {
    const m = /^(.*)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(raw);
    if (m) {
      const origin = resolve(m[1]) === resolve(tsFile) ? w.origins[Number(m[2]) - 1] : null;
      const where = origin
        ? `${origin.file}:${origin.line}: ${origin.path} (${origin.provider})`
        : `${m[1]}:${m[2]}:${m[3]}`;
      errors.push(`${where}: ${m[4]}: ${m[5]}`);
    } else if (raw.trim() !== "" && errors.length > 0) {
      errors[errors.length - 1] += `\n    ${raw.trim()}`;
    }
  }
  return errors;
}

function tscPath() {
  const bin = join(HERE, "node_modules", "typescript", "bin", "tsc");
  if (!existsSync(bin)) {
    throw new InputError(
      `${relative(process.cwd(), bin)} is missing: run \`npm ci\` in ${relative(process.cwd(), HERE) || "."}`,
    );
  }
  return bin;
}

function main() {
  const { files, out, generateOnly } = parseArgs(process.argv.slice(2));
  const tsc = generateOnly ? null : tscPath();
  const records = readRecords(files);
  mkdirSync(out, { recursive: true });
  const w = generate(records);
  const tsFile = join(out, "requests.ts");
  writeFileSync(tsFile, w.lines.join("\n"));
  // The SDK packages are found the way Node finds them, from the folder of
  // the .ts file upwards: a link to ours makes that work wherever --out is.
  const modules = join(out, "node_modules");
  rmSync(modules, { force: true, recursive: false });
  symlinkSync(join(HERE, "node_modules"), modules, "dir");
  writeFileSync(join(out, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  if (generateOnly) {
    console.log(`${tsFile}: ${records.length} request bodies`);
    return 0;
  }
  // --strict and --noEmit are in the tsconfig too; said here, they hold
  // whatever the file says. --pretty false: one `file(line,col)` per error.
  const args = [tsc, "-p", join(out, "tsconfig.json"), "--strict", "--noEmit", "--pretty", "false"];
  const run = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (run.error) throw new InputError(`tsc did not run: ${run.error.message}`);
  const printed = `${run.stdout}${run.stderr}`;
  if (run.status === 0) {
    const n = files.length;
    const responses = records.filter((r) => r.response).length;
    const events = records.reduce((sum, r) => sum + (r.stream ? r.stream.length : 0), 0);
    const streams = events > 0 ? ` and ${events} stream events` : "";
    console.log(
      `${records.length} request bodies, ${responses} responses${streams} type-check (${n} ${n === 1 ? "file" : "files"})`,
    );
    return 0;
  }
  const errors = explain(printed, w, tsFile);
  if (errors.length === 0) {
    // tsc failed without an error we can place: show what it said.
    throw new InputError(`tsc exited with ${run.status}:\n${printed}`);
  }
  console.log(errors.join("\n"));
  console.log(`${errors.length} type errors in ${records.length} request bodies`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    console.error(`error: ${e.message}`);
    process.exitCode = 2;
  }
}
