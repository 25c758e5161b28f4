#!/usr/bin/env node
// The physical floor of a pre-flight: the least any client can spend to look at a stdio MCP server
// once. A bare Node.js client (no SDK, nothing but node:child_process) spawns the server, sends one
// `initialize` (the legacy protocol version and empty capabilities, as kcshare does), waits for its
// answer, sends `notifications/initialized` and one `tools/list`, waits for that answer, closes the
// server's stdin and waits for the server to exit. It follows no `nextCursor`, answers no request of
// the server's and sets no timer: anything a real tool adds costs more, not less.
//
//   node floor.mjs [--env NAME=VALUE]... COMMAND [ARG...]
//
// Exits 0 when both answers came and were not errors, with the number of tools on stdout; else 1.
// The server's stderr is discarded.
import { spawn } from "node:child_process";

const argv = process.argv.slice(2);
const env = { ...process.env };
while (argv[0] === "--env") {
  const pair = argv[1] ?? "";
  const eq = pair.indexOf("=");
  if (eq <= 0) fail(`--env needs NAME=VALUE, got ${JSON.stringify(pair)}`);
  env[pair.slice(0, eq)] = pair.slice(eq + 1);
  argv.splice(0, 2);
}
if (argv.length === 0) fail("usage: floor.mjs [--env NAME=VALUE]... COMMAND [ARG...]");

function fail(message) {
  process.stderr.write(`floor: ${message}\n`);
  process.exit(1);
}

const server = spawn(argv[0], argv.slice(1), { env, stdio: ["pipe", "pipe", "ignore"] });
server.on("error", (e) => fail(`spawn failed: ${e.message}`));

let tools = -1;
let buffered = "";
server.stdout.setEncoding("utf8");
server.stdout.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, nl).trim();
    buffered = buffered.slice(nl + 1);
    if (line) answer(JSON.parse(line));
  }
});

function send(message) {
  server.stdin.write(JSON.stringify(message) + "\n");
}

function answer(message) {
  if (message.id === 1) {
    if (message.error) fail(`initialize: ${JSON.stringify(message.error)}`);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  } else if (message.id === 2) {
    if (message.error || !Array.isArray(message.result?.tools)) {
      fail(`tools/list: ${JSON.stringify(message.error ?? message.result)}`);
    }
    tools = message.result.tools.length;
    server.stdin.end();
  }
}

server.on("exit", (code, signal) => {
  if (tools < 0) fail(`the server exited (${signal ?? code}) before answering`);
  process.stdout.write(`${tools}\n`);
});

send({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2024-11-05",
    capabilities: {},
    clientInfo: { name: "floor", version: "1" },
  },
});
