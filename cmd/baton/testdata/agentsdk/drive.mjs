// Drives baton with the Claude Agent SDK, as a script written for Claude
// Code would: query() with pathToClaudeCodeExecutable pointing at baton.
// argv[2] is a JSON object: exe (baton), cwd, and mode, "single" (one
// prompt), "stream" (prompts streamed in, with control requests) or "ask"
// (calls no rule allows are asked about through canUseTool). It
// prints one JSON object: every message the SDK yielded, errors,
// and what the control requests answered. (check-stream.mjs checks the
// messages against the SDK's type declarations.)
import { query } from '@anthropic-ai/claude-agent-sdk';

const { exe, cwd, mode } = JSON.parse(process.argv[2]);
const stderr = [];
const options = {
  pathToClaudeCodeExecutable: exe,
  cwd,
  model: 'llmtest-model',
  maxTurns: 8,
  allowedTools: ['Task', 'Glob'],
  disallowedTools: ['Bash(rm:*)'],
  permissionMode: 'default',
  settingSources: ['project', 'local'],
  systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Always answer in English.' },
  stderr: (text) => stderr.push(text),
};

function userMessage(text) {
  return { type: 'user', message: { role: 'user', content: [{ type: 'text', text }] }, parent_tool_use_id: null, session_id: '' };
}

const messages = [];
const answers = {};
const errors = [];
try {
  if (mode === 'single') {
    for await (const msg of query({ prompt: 'find the go files', options })) messages.push(msg);
  } else if (mode === 'ask') {
    // canUseTool answers baton's can_use_tool questions: the command
    // runs, the delegation is refused with a reason.
    answers.asked = [];
    options.allowedTools = [];
    options.canUseTool = async (toolName, input) => {
      answers.asked.push({ toolName, input });
      return toolName === 'task' ? { behavior: 'deny', message: 'no sub-agents today' } : { behavior: 'allow', updatedInput: input };
    };
    async function* prompts() {
      yield userMessage('run a command and delegate');
      await new Promise(() => {}); // the run ends at its result
    }
    for await (const msg of query({ prompt: prompts(), options })) {
      messages.push(msg);
      if (msg.type === 'result') break;
    }
  } else {
    // Streaming input: the second prompt is sent once the first result
    // is in, as a chat front end does.
    let release;
    const firstDone = new Promise((resolve) => (release = resolve));
    async function* prompts() {
      yield userMessage('find the go files');
      await firstDone;
      yield userMessage('/greet Ada');
    }
    const q = query({ prompt: prompts(), options });
    let results = 0;
    for await (const msg of q) {
      messages.push(msg);
      if (msg.type === 'system' && msg.subtype === 'init' && !answers.commands) {
        answers.commands = await q.supportedCommands();
        answers.agents = await q.supportedAgents();
        await q.setModel('llmtest-model-2');
        try {
          await q.setPermissionMode('plan');
          answers.setPermissionMode = 'accepted';
        } catch (e) {
          answers.setPermissionMode = 'refused: ' + e.message;
        }
      }
      if (msg.type === 'result' && ++results === 1) release();
      if (results === 2) break;
    }
  }
} catch (e) {
  errors.push(String(e && e.stack ? e.stack : e));
}
console.log(JSON.stringify({ messages, answers, errors, stderr: stderr.join('') }));
