/**
 * One cold client process for the first-call bench: connects to an MCP endpoint over Streamable HTTP
 * with the official SDK client of the major version asked for (1: `@modelcontextprotocol/sdk`, 2:
 * `@modelcontextprotocol/client`), then times each step a host takes before a model's first answer:
 * connect, tools/list, the first tools/call (list_skills), the first execute, and a second execute
 * (what is left once the client's caches are warm). Prints one JSON line on stdout.
 *
 *   node bench/lib/first-call-client.mjs 2 http://127.0.0.1:4010/mcp "$KEY"
 */
const [major, url, key] = process.argv.slice(2);
const t0 = performance.now();
const { Client, StreamableHTTPClientTransport } =
  major === '1'
    ? {
        ...(await import('@modelcontextprotocol/sdk/client/index.js')),
        ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
      }
    : await import('@modelcontextprotocol/client');
const importMs = performance.now() - t0;
const client = new Client({ name: 'first-call-bench', version: '1' });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { 'X-API-Key': key } },
});
const marks = [];
const mark = (name, since) => {
  const now = performance.now();
  marks.push([name, now - since]);
  return now;
};
let t = performance.now();
const start = t;
await client.connect(transport);
t = mark('connectMs', t);
const listed = await client.listTools();
t = mark('toolsListMs', t);
const skills = await client.callTool({ name: 'list_skills', arguments: {} });
t = mark('firstCallMs', t);
const script = { script: 'return 1;' };
const first = await client.callTool({ name: 'execute', arguments: script });
t = mark('firstExecuteMs', t);
const second = await client.callTool({ name: 'execute', arguments: script });
t = mark('secondExecuteMs', t);
const ok = skills.isError !== true && first.isError !== true && second.isError !== true;
const out = {
  major: Number(major),
  importMs,
  ...Object.fromEntries(marks),
  toFirstAnswerMs: marks.slice(0, 3).reduce((n, [, ms]) => n + ms, 0),
  totalMs: performance.now() - start,
  tools: listed.tools.length,
  ok,
};
await client.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
