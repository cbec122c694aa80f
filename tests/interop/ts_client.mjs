// An MCP client on the official TypeScript SDK (@modelcontextprotocol/sdk, protocol 2025-11-25),
// used by test_interop.py to prove Parlance works with a client nobody here wrote.
//
// Usage: node ts_client.mjs PLAN_JSON
//   PLAN_JSON = {"command": "...", "args": [...], "env": {...},
//                "calls": [{"step": "name", "tool": "...", "arguments": {...}}]}
// Prints one JSON object: {"protocolVersion", "serverInfo", "tools": [...names], "results": [{step, ...}]}.
// A failure prints {"failedStep": "...", "error": "..."} and exits 1, so the test names the step.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const plan = JSON.parse(process.argv[2]);
let step = "connect";
const fail = (error) => {
  process.stdout.write(JSON.stringify({ failedStep: step, error: String(error?.message ?? error) }) + "\n");
  process.exit(1);
};

try {
  const transport = new StdioClientTransport({
    command: plan.command,
    args: plan.args,
    env: { ...process.env, ...plan.env },
    stderr: "ignore",
  });
  const client = new Client({ name: "parlance-interop-ts", version: "1.0.0" });
  // The SDK hands the negotiated version to the transport; record it to prove which era was spoken.
  let protocolVersion = null;
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => { protocolVersion = version; setVersion?.(version); };
  await client.connect(transport);
  const out = {
    protocolVersion,
    serverInfo: client.getServerVersion(),
    tools: [],
    results: [],
  };
  step = "tools/list";
  out.tools = (await client.listTools()).tools.map((t) => t.name);
  for (const call of plan.calls) {
    step = call.step;
    const result = await client.callTool({ name: call.tool, arguments: call.arguments });
    out.results.push({ step: call.step, isError: result.isError ?? false, structuredContent: result.structuredContent ?? null,
                       text: result.content?.[0]?.text ?? null });
  }
  step = "close";
  await client.close();
  process.stdout.write(JSON.stringify(out) + "\n");
} catch (error) {
  fail(error);
}
