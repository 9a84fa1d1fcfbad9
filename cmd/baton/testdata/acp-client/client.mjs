// Drives `baton acp` with the official ACP TypeScript SDK's client, as an
// editor would, and prints what it saw as JSON for cmd/baton's
// TestACPWithTheOfficialSDK to check. Usage: node client.mjs BATON WORKSPACE
// (baton is started with this process's environment).
//
// The SDK parses every message with the ACP schema, leniently: what it
// rejects it reports through console.error, and a field of the wrong
// shape it quietly drops or defaults. Both are collected as problems:
// the first by console.error, the second by comparing each message baton
// wrote, as read off the pipe, with what the SDK handed on.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [batonPath, workspace] = process.argv.slice(2);
const problems = [];
console.error = (...args) => problems.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));

const facts = { problems, permissions: [], reads: [], writes: [], stops: {}, segments: {}, exits: [] };
// The editor's buffers: written through fs/write_text_file, never saved.
const buffers = new Map();

// A client app that answers like an editor: it shows updates, allows
// tool calls "always" and delegations once, and serves its buffers.
function editor(updates, changed) {
  return acp
    .client({ name: "baton-acp-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      changed();
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      facts.permissions.push(params);
      const wanted = params.toolCall.kind === "think" ? "allow_once" : "allow_always";
      const option = params.options.find((o) => o.kind === wanted) ?? params.options[0];
      return { outcome: { outcome: "selected", optionId: option.optionId } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      facts.reads.push(params.path);
      return { content: buffers.get(params.path) ?? readFileSync(params.path, "utf8") };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      facts.writes.push({ path: params.path, content: params.content });
      buffers.set(params.path, params.content);
      return {};
    });
}

// canonical is JSON with sorted keys, for comparing messages.
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

// wire collects what baton wrote, message by message, off one branch of
// its output.
async function wire(stream, messages) {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const bytes of stream) {
    rest += decoder.decode(bytes, { stream: true });
    let nl;
    while ((nl = rest.indexOf("\n")) >= 0) {
      messages.push(JSON.parse(rest.slice(0, nl)));
      rest = rest.slice(nl + 1);
    }
  }
}

// same records a problem when the SDK handed on something else than
// baton sent.
function same(what, sent, parsed) {
  if (canonical(sent) !== canonical(parsed)) {
    problems.push(`${what}: the SDK repaired baton's message\n sent:   ${canonical(sent)}\n parsed: ${canonical(parsed)}`);
  }
}

// connect starts baton, runs work on one connection, and records how
// baton exited once the connection closed; then it checks that the SDK
// took every update and permission request as baton wrote it.
async function connect(work) {
  const child = spawn(batonPath, [], { stdio: ["pipe", "pipe", "inherit"], env: process.env });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const [forSDK, forCheck] = Readable.toWeb(child.stdout).tee();
  const sent = [];
  const read = wire(forCheck, sent);
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), forSDK);
  const updates = [];
  const asked = facts.permissions.length;
  let wake = () => {};
  const changed = () => wake();
  // waitFor resolves once an update from index from on matches.
  const waitFor = (from, match) =>
    new Promise((resolve) => {
      const check = () => {
        const i = updates.findIndex((u, j) => j >= from && match(u));
        if (i >= 0) {
          wake = () => {};
          resolve(updates[i]);
        } else {
          wake = check;
        }
      };
      check();
    });
  await editor(updates, changed).connectWith(stream, (agent) => work(agent, updates, waitFor));
  child.stdin.end();
  facts.exits.push(await exited);
  await read;
  const sentUpdates = sent.filter((m) => m.method === acp.methods.client.session.update);
  const sentAsks = sent.filter((m) => m.method === acp.methods.client.session.requestPermission);
  if (sentUpdates.length !== updates.length) problems.push(`baton sent ${sentUpdates.length} updates, the SDK passed on ${updates.length}`);
  sentUpdates.forEach((m, i) => same("session/update", m.params, updates[i]));
  sentAsks.forEach((m, i) => same("session/request_permission", m.params, facts.permissions[asked + i]));
}

// prompt sends text and keeps the updates of its turn under name.
async function prompt(agent, updates, sessionId, name, text) {
  const from = updates.length;
  const resp = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  facts.stops[name] = resp.stopReason;
  facts.segments[name] = updates.slice(from);
}

let sessionId;
await connect(async (agent, updates, waitFor) => {
  facts.init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    clientInfo: { name: "baton-acp-test", version: "1" },
  });
  facts.newSession = await agent.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
  sessionId = facts.newSession.sessionId;
  await prompt(agent, updates, sessionId, "hello", "say hello");
  await prompt(agent, updates, sessionId, "edit", "edit the notes");

  const from = updates.length;
  const waiting = agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "wait forever" }] });
  await waitFor(from, (u) => u.update.sessionUpdate === "agent_message_chunk");
  await agent.notify(acp.methods.agent.session.cancel, { sessionId });
  facts.stops.cancel = (await waiting).stopReason;
  facts.segments.cancel = updates.slice(from);

  await prompt(agent, updates, sessionId, "delegate", "delegate the reading");
});

await connect(async (agent, updates) => {
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
  });
  facts.loaded = await agent.request(acp.methods.agent.session.load, { sessionId, cwd: workspace, mcpServers: [] });
  facts.segments.load = updates.slice();
  await prompt(agent, updates, sessionId, "afterLoad", "say hello");
});

process.stdout.write(JSON.stringify(facts));
