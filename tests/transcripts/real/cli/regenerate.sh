#!/usr/bin/env bash
# Regenerates the session files of real agent CLIs kept here as fixtures:
# Codex (a rollout JSONL), Claude Code (a session JSONL) and Gemini CLI (a
# session JSONL, ~/.gemini/tmp/<project>/chats/), each run offline
# against tests/model_server/server.py with the scripts beside this file: the
# model asks to read config.txt, the agent really runs the tool, the model
# answers. With the tap built (target/debug/agent-loop-sim), each run also goes
# through `agent-loop-sim tap` and its wire recording is kept (*.tap.jsonl).
#
#   tests/transcripts/real/cli/regenerate.sh
#
# Needs node/npm (the CLIs come from tests/model_server/package.json) and
# python3. Nothing leaves the machine: both agents talk to 127.0.0.1 only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
server_dir="$root/tests/model_server"
[ -x "$server_dir/node_modules/.bin/gemini" ] || (cd "$server_dir" && npm ci --no-audit --no-fund >/dev/null)
tap="$root/target/debug/agent-loop-sim"
have_tap=false
"$tap" tap --help >/dev/null 2>&1 && have_tap=true
server_pid=
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true' EXIT

# A fixed folder, so the fixtures name the same paths on every run.
base=/tmp/agent-loop-sim-cli
rm -rf "$base"
mkdir -p "$base/work" "$base/codex-home" "$base/claude-home" "$base/gemini-home/.gemini"
printf 'limit = 42\n' > "$base/work/config.txt"

start_server() { # script log -> sets url, server_pid
  python3 "$server_dir/server.py" "$1" --log "$2" > "$base/server.out" &
  server_pid=$!
  for _ in $(seq 100); do
    grep -q listening "$base/server.out" 2>/dev/null && break
    sleep 0.1
  done
  url=$(sed -n 's/^listening on //p' "$base/server.out")
}

tapped() { # out-file command... : runs the command through the tap if it is built
  local out=$1; shift
  if $have_tap; then
    "$tap" tap --upstream "$url" --out "$out" -- "$@"
  else
    "$@"
  fi
}

# ---- Codex: a model provider at the server, Responses wire API.
start_server "$here/codex.script.json" "$base/codex.server.jsonl"
cat > "$base/codex-home/config.toml" <<TOML
model = "scripted-model"
model_provider = "scripted"

[model_providers.scripted]
name = "scripted"
base_url = "$url/v1"
wire_api = "responses"
env_key = "SCRIPTED_API_KEY"
TOML
if $have_tap; then
  # The tap sets OPENAI_BASE_URL for the agent; Codex's config names its
  # provider's base_url itself, so the run reads it from a wrapper.
  cat > "$base/codex-run.sh" <<SH
#!/usr/bin/env bash
sed -i "s|^base_url = .*|base_url = \"\$OPENAI_BASE_URL\"|" "$base/codex-home/config.toml"
exec "$server_dir/node_modules/.bin/codex" "\$@"
SH
  chmod +x "$base/codex-run.sh"
  codex_bin="$base/codex-run.sh"
else
  codex_bin="$server_dir/node_modules/.bin/codex"
fi
(cd "$base/work" && CODEX_HOME="$base/codex-home" SCRIPTED_API_KEY=sk-dummy-not-a-key \
  tapped "$here/codex.tap.jsonl.new" "$codex_bin" exec --skip-git-repo-check -s danger-full-access \
  "What is the limit in config.txt?" </dev/null > "$base/codex.out" 2>&1)
kill "$server_pid"
cp "$(find "$base/codex-home/sessions" -name 'rollout-*.jsonl' | head -1)" "$here/codex-rollout.jsonl"
[ -f "$here/codex.tap.jsonl.new" ] && mv "$here/codex.tap.jsonl.new" "$here/codex.tap.jsonl"

# ---- Claude Code: ANTHROPIC_BASE_URL (set by the tap, or here) and a dummy key, -p.
start_server "$here/claude-code.script.json" "$base/claude-code.server.jsonl"
(cd "$base/work" && HOME="$base/claude-home" ANTHROPIC_BASE_URL="$url" ANTHROPIC_API_KEY=sk-ant-dummy-not-a-key \
  DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
  tapped "$here/claude-code.tap.jsonl.new" "$server_dir/node_modules/.bin/claude" -p "What is the limit in config.txt?" \
  </dev/null > "$base/claude-code.out" 2>&1)
kill "$server_pid"
cp "$(find "$base/claude-home/.claude/projects" -name '*.jsonl' | head -1)" "$here/claude-code-session.jsonl"
[ -f "$here/claude-code.tap.jsonl.new" ] && mv "$here/claude-code.tap.jsonl.new" "$here/claude-code.tap.jsonl"

# ---- Gemini CLI: GOOGLE_GEMINI_BASE_URL (read by @google/genai; plain http is
# allowed for 127.0.0.1), an API-key login chosen in settings.json, a fixed
# model (no "auto" routing, whose classifier asks a side question), --yolo so
# the tools run without a prompt. Not through the tap: it does not speak the
# Gemini API.
start_server "$here/gemini-cli.script.json" "$base/gemini-cli.server.jsonl"
cat > "$base/gemini-home/.gemini/settings.json" <<JSON
{"security": {"auth": {"selectedType": "gemini-api-key"}},
 "privacy": {"usageStatisticsEnabled": false},
 "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
 "telemetry": {"enabled": false}}
JSON
(cd "$base/work" && HOME="$base/gemini-home" GOOGLE_GEMINI_BASE_URL="$url" GEMINI_API_KEY=dummy-not-a-key \
  GEMINI_CLI_TRUST_WORKSPACE=true "$server_dir/node_modules/.bin/gemini" -m gemini-2.5-flash --yolo \
  -p "What is the limit in config.txt? Also look at missing.txt." </dev/null > "$base/gemini-cli.out" 2>&1)
kill "$server_pid"
cp "$(find "$base/gemini-home/.gemini/tmp" -name 'session-*.json*' | head -1)" "$here/gemini-cli-session.jsonl"

{
  echo "codex: $("$server_dir/node_modules/.bin/codex" --version)"
  echo "claude-code: $("$server_dir/node_modules/.bin/claude" --version)"
  echo "gemini-cli: $("$server_dir/node_modules/.bin/gemini" --version)"
} > "$here/VERSIONS"
cat "$here/VERSIONS"
tail -n 3 "$base/codex.out" "$base/claude-code.out" "$base/gemini-cli.out"
