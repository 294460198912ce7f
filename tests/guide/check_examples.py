#!/usr/bin/env python3
"""Check every example in scenarios/README.md against the real binary.

1. Each ```json block that is a whole scenario (starts with "{") is written
   to run/NAME.json and must pass `check` (exit 0).
2. Files with mistakes put in (MUTATIONS below) are made from those examples.
3. Each indented block starting with "$ agent-loop-sim" is run in run/ and
   its output (stderr, then stdout, then "(exit N)") must equal the guide's.
4. Each string of 12+ characters in a ```jsonc snippet must occur in a
   shipped scenario or in one of the complete examples.
Usage: check_examples.py README  (env ALS: the binary; GUIDE_RUN: a scratch
directory) [--write prints the real outputs] [--fill rewrites the guide's]
Run by tests/guide.rs with the binary under test.
"""
import glob, json, os, re, subprocess, sys

README = sys.argv[1]
BIN = os.environ['ALS']
RUN = os.environ['GUIDE_RUN']
os.makedirs(RUN, exist_ok=True)
SHIPPED = os.path.join(os.path.dirname(README))
text = open(README, encoding='utf-8').read()
fails = 0

def fail(msg):
    global fails
    fails += 1
    print('FAIL:', msg)

# 1. complete examples
examples = {}
for lang, body in re.findall(r'```(json|jsonc)\n(.*?)```', text, re.S):
    if lang == 'json' and body.lstrip().startswith('{') and '"name"' in body and '"model"' in body:
        name = json.loads(body)['name']
        examples[name] = body
        open(f'{RUN}/{name}.json', 'w', encoding='utf-8').write(body)
for name in examples:
    r = subprocess.run([BIN, 'check', f'{name}.json'], cwd=RUN, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f'{name}.json: check exit {r.returncode}: {r.stderr}')
print(f'{len(examples)} complete examples checked: {", ".join(examples)}')

# 2. mistakes put in: (file, base example, [(old, new), ...])
M = [
  ('comma', 'read-the-port', [('"budget": 3,\n  "model"', '"budget": 3,\n}\n  "model"')]),
  ('trunc', 'read-the-port', [(None, lambda t: t[:t.index('"Read a file"')])]),
  ('type', 'read-the-port', [('"budget": 3', '"budget": "3"')]),
  ('typo', 'read-the-port', [('{ "has_result"', '{ "has_reslt"')]),
  ('many', 'read-the-port', [('"name": "read-the-port"', '"name": "Read the port"'),
                             ('"files": { "server.env": "PORT=8080" }', '"files": { "server.env": "PORT=8080", "server.env": "PORT=80" }'),
                             ('"calls": [ { "tool": "read_file"', '"calls": [ { "tool": "open_file"')]),
  ('notoffered', 'read-the-port', [('      "params": ["path"]\n    }\n  ],', '      "params": ["path"]\n    },\n    {\n      "name": "deploy",\n      "description": { "zh": "部署", "en": "Deploy" }\n    }\n  ],')]),
  ('norule', 'read-the-port', [('    {\n      "say": { "zh": "我先读', '    {\n      "when": { "contains": "never" },\n      "say": { "zh": "我先读')]),
  ('ends', 'read-the-port', [('"budget": 3', '"budget": 1'), ('"8": {', '"9": {')]),
  ('weak', 'read-the-port', [('      "params": ["path"]\n    }\n  ],', '      "params": ["path"]\n    },\n    {\n      "name": "run_tests",\n      "description": { "zh": "运行测试", "en": "Run the tests" }\n    }\n  ],'),
                             ('"budget": 3,', '"budget": 3,\n  "verify": { "tool": "read_file", "args": { "path": "server.env" } },')]),
  # custom tools, policies, ids
  ('schema-type', 'deploy-notes', [('"dry_run": { "type": "boolean" }', '"dry_run": { "type": "bool" }')]),
  ('both', 'deploy-notes', [('"description": { "zh": "部署 notes-app", "en": "Deploy notes-app" },', '"description": { "zh": "部署 notes-app", "en": "Deploy notes-app" },\n      "params": ["env"],')]),
  ('nodefault', 'deploy-notes', [('{ "ok": false, "text"', '{ "args": { "env": "prod" }, "ok": false, "text"')]),
  ('noanswers', 'deploy-notes', [(None, lambda t: re.sub(r'"approvals": \[.*?\n      \],\n', '', t, flags=re.S))]),
  ('policy', 'deploy-notes', [('"policy": "deny"', '"policy": "maybe"')]),
  ('idstyle', 'deploy-notes', [('"ids": "openai"', '"ids": "uuid"')]),
  ('edit', 'deploy-notes', [('{ "args": { "env": "prod" }, "decision": "deny",\n          "reason": { "zh": "先部署到 staging。", "en": "Staging first, please." } }', '{ "args": { "env": "prod" }, "decision": "edit", "edit": { "env": "staging" } }')]),
  ('argsboth', 'deploy-notes', [('"arguments": "{', '"args": { "env": "prod" }, "arguments": "{')]),
  ('twotools', 'deploy-notes', [('"dry_run": { "type": "boolean" }', '"dry_run": { "type": "bool" }'), ('"policy": "deny"', '"policy": "deny",\n      "approvals": [ { "decision": "approve" } ]'), ('"name": "deploy-notes"', '"name": "Deploy notes"')]),
  # rule conditions, narration, context
  ('status', 'port-in-use', [('"status": "compacted"', '"status": "removed"')]),
  ('count', 'port-in-use', [('"count": 2', '"count": 0')]),
  ('anchors', 'port-in-use', [('"call_1.result"', '"call_9.result"'), ('"reply.3"', '"reply.9"'), ('"end": {', '"20": { "zh": "结束。", "en": "The end." },\n    "end": {')]),
  ('nosummary', 'port-in-use', [('"policy": "drop_oldest_results"', '"policy": "summarize"')]),
  ('window', 'port-in-use', [('"window": 400', '"window": 200')]),
  # wrong values, all reported
  ('drop', 'read-the-port', [('"budget": 3,', '"budget": 3,\n  "harness": { "drop_reasoning": true },')]),
  ('streamed-reasoning', 'read-the-port', [('"budget": 3,', '"budget": 3,\n  "stream": true,'),
                                           ('"say": { "zh": "我先读 server.env。", "en": "Let me read server.env." },', '"say": { "zh": "我先读 server.env。", "en": "Let me read server.env." },\n      "reasoning": { "zh": "先读文件。", "en": "Read the file first." },')]),
  ('values', 'read-the-port', [('"params": ["path"]', '"params": ["path"], "readonly": true'),
                               ('"calls": [ { "tool": "read_file", "args": { "path": "server.env" } } ]', '"calls": { "tool": "read_file", "args": { "path": "server.env" } }'),
                               ('"expect": "completed"', '"expect": "done"')]),
]
for name, base, edits in M:
    if base not in examples:
        fail(f'{name}: no example {base}'); continue
    t = examples[base]
    for old, new in edits:
        if old is None:
            t = new(t)
        elif t.count(old) != 1:
            fail(f'{name}: {old!r} occurs {t.count(old)} times in {base}')
        else:
            t = t.replace(old, new)
    open(f'{RUN}/{name}.json', 'w', encoding='utf-8').write(t)

# the quiz snippet, put into read-the-port, must pass check
quiz = [b for l, b in re.findall(r'```(json|jsonc)\n(.*?)```', text, re.S) if b.startswith('"quiz"')]
for k, q in enumerate(quiz):
    t = examples['read-the-port'].replace('  "expect"', '  ' + q.strip().replace('\n', '\n  ') + ',\n  "expect"', 1)
    open(f'{RUN}/quiz{k}.json', 'w', encoding='utf-8').write(t)
    r = subprocess.run([BIN, 'check', f'quiz{k}.json'], cwd=RUN, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f'quiz{k}.json: {r.stderr}')
print(f'{len(quiz)} quiz snippet(s) checked inside read-the-port')

# 3. commands and their outputs
blocks = re.findall(r'((?:^    .*\n|^\n)+)', text, re.M)
ran = 0
for block in blocks:
    lines = [l[4:] for l in block.split('\n')]
    i = 0
    while i < len(lines):
        if not lines[i].startswith('$ agent-loop-sim'):
            i += 1; continue
        cmd = lines[i][2:]
        j = i + 1
        while j < len(lines) and not lines[j].startswith('$ ') and lines[j] != '':
            j += 1
        want = lines[i+1:j]
        shell = cmd.replace('agent-loop-sim', BIN, 1)
        r = subprocess.run(['bash', '-c', shell], cwd=RUN, capture_output=True, text=True)
        got = (r.stderr + r.stdout).rstrip('\n').split('\n') if (r.stderr + r.stdout).strip() else []
        if want and re.fullmatch(r'\(exit \d+\)', want[-1]):
            got.append(f'(exit {r.returncode})')
        ran += 1
        if got != want:
            fail(f'$ {cmd}\n--- guide\n' + '\n'.join(want) + '\n--- real\n' + '\n'.join(got))
        if '--write' in sys.argv:
            print('    $ ' + cmd); print('\n'.join('    ' + g for g in got))
        i = j
print(f'{ran} commands run, output compared')
if '--fill' in sys.argv:
    # Rewrite each command's output in the guide with the real one.
    def real(m):
        cmd = m.group(1)
        r = subprocess.run(['bash', '-c', cmd.replace('agent-loop-sim', BIN, 1)], cwd=RUN, capture_output=True, text=True)
        out = [l for l in (r.stderr + r.stdout).rstrip('\n').split('\n') if l]
        if cmd.startswith('agent-loop-sim check'):
            out.append(f'(exit {r.returncode})')
        return '    $ ' + cmd + '\n' + ''.join('    ' + l + '\n' for l in out)
    filled = re.sub(r'^    \$ (agent-loop-sim .*)\n(?:    (?!\$).*\n)*', real, text, flags=re.M)
    open(README, 'w', encoding='utf-8').write(filled)
    print('filled', README)

# 4. jsonc snippets: their strings come from a real file
sources = ''.join(open(f, encoding='utf-8').read() for f in glob.glob(f'{SHIPPED}/*.json')) + ''.join(examples.values())
snips = [b for l, b in re.findall(r'```(json|jsonc)\n(.*?)```', text, re.S) if not (l == 'json' and b.lstrip().startswith('{') and '"model"' in b) and not b.startswith('"quiz"')]
strings = 0
for b in snips:
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', b):
        for s in m.group(1).split('…'):
            s = s.strip()
            if len(s) < 12:
                continue
            strings += 1
            if s not in sources:
                fail(f'snippet string not in any scenario: "{s}"')
print(f'{len(snips)} snippets, {strings} strings found in real files')
print('OK' if not fails else f'{fails} FAILED')
sys.exit(1 if fails else 0)
