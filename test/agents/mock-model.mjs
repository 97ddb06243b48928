/**
 * A loopback mock of a model API, for driving a real agent CLI through its own tool loop.
 * It answers the agent's main-loop requests with a script: one shell tool call per step, then a
 * final text; it records what the agent sends back as each tool's result, and stops.
 *
 * Protocols: Anthropic Messages (`POST /v1/messages`, streamed or not), OpenAI Responses
 * (`POST /v1/responses`, streamed), Gemini (`POST /v1beta/models/<m>:streamGenerateContent`),
 * and OpenAI Chat Completions (`POST /v1/chat/completions`, for opencode's openai-compatible
 * provider). Requests that are not the main loop (titles, summaries) get a short text.
 */
import { createServer } from 'node:http';

/**
 * @param {{ calls: Array<Record<string, unknown>>, shellTool: Record<string, string> }} script
 *   calls: the tool inputs, in order (`{command: ...}` plus any other field); shellTool: the
 *   tool's name per protocol.
 */
export function startMock(script) {
  const byId = new Map();
  const sentAt = new Map();
  const requests = [];
  let step = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      let json = {};
      try {
        json = body ? JSON.parse(body) : {};
      } catch {
        /* not JSON */
      }
      requests.push({
        url: req.url,
        method: req.method,
        tools: Array.isArray(json.tools)
          ? json.tools.map((t) => t.name ?? t.function?.name ?? t.type)
          : undefined,
      });
      const url = req.url ?? '';
      try {
        if (url.includes('/v1/messages/count_tokens')) return sendJson(res, { input_tokens: 10 });
        if (url.includes('/v1/messages')) return anthropic(json, res);
        if (url.includes('/responses')) return responses(json, res);
        if (url.includes('/chat/completions')) return chat(json, res);
        if (url.includes(':streamGenerateContent') || url.includes(':generateContent'))
          return gemini(json, res, url.includes('stream'));
        if (url.includes('/models'))
          return sendJson(res, { data: [{ id: 'mock', object: 'model' }], object: 'list' });
        res.writeHead(404).end('{}');
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
  });

  /** The next thing to do for a main-loop request: a tool call, or the final text. */
  function next(toolResult, isMain) {
    if (!isMain) return { text: 'ok' };
    for (const r of toolResult ?? [])
      if (!byId.has(r.id)) byId.set(r.id, { ...r, ms: Date.now() - (sentAt.get(r.id) ?? Date.now()) });
    if (step < script.calls.length) {
      const id = `call_${++step}`;
      sentAt.set(id, Date.now());
      return { call: script.calls[step - 1], id };
    }
    return { text: 'done' };
  }

  function anthropic(json, res) {
    const tools = Array.isArray(json.tools) ? json.tools : [];
    const isMain = tools.some((t) => t.name === script.shellTool.anthropic);
    const toolResult = [];
    for (const m of json.messages ?? []) {
      if (m.role !== 'user' || !Array.isArray(m.content)) continue;
      for (const tr of m.content.filter((c) => c.type === 'tool_result')) {
        const text = Array.isArray(tr.content)
          ? tr.content.map((c) => c.text ?? '').join('')
          : String(tr.content ?? '');
        toolResult.push({ id: tr.tool_use_id, text, isError: tr.is_error === true });
      }
    }
    const n = next(toolResult, isMain);
    const content = n.call
      ? [{ type: 'tool_use', id: n.id, name: script.shellTool.anthropic, input: n.call }]
      : [{ type: 'text', text: n.text }];
    const message = {
      id: `msg_${Date.now()}`,
      type: 'message',
      role: 'assistant',
      model: json.model ?? 'mock',
      content,
      stop_reason: n.call ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 10 },
    };
    if (!json.stream) return sendJson(res, message);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev('message_start', { message: { ...message, content: [], stop_reason: null } });
    content.forEach((c, index) => {
      if (c.type === 'text') {
        ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        ev('content_block_delta', { index, delta: { type: 'text_delta', text: c.text } });
      } else {
        ev('content_block_start', { index, content_block: { ...c, input: {} } });
        ev('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(c.input) },
        });
      }
      ev('content_block_stop', { index });
    });
    ev('message_delta', {
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: 10 },
    });
    ev('message_stop', {});
    res.end();
  }

  function responses(json, res) {
    const tools = Array.isArray(json.tools) ? json.tools : [];
    const isMain = tools.length > 0;
    const input = Array.isArray(json.input) ? json.input : [];
    const toolResult = input
      .filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output')
      .map((i) => ({
        id: i.call_id,
        text: typeof i.output === 'string' ? i.output : JSON.stringify(i.output),
      }));
    const n = next(toolResult, isMain);
    const id = `resp_${Date.now()}`;
    const item = n.call
      ? {
          type: 'function_call',
          id: `fc_${n.id}`,
          call_id: n.id,
          name: script.shellTool.responses,
          arguments: JSON.stringify(n.call),
          status: 'completed',
        }
      : {
          type: 'message',
          id: `msg_${id}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: n.text, annotations: [] }],
        };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    const response = { id, object: 'response', status: 'in_progress', output: [], model: json.model };
    ev('response.created', { response });
    ev('response.output_item.added', { output_index: 0, item });
    ev('response.output_item.done', { output_index: 0, item });
    ev('response.completed', {
      response: {
        ...response,
        status: 'completed',
        output: [item],
        usage: {
          input_tokens: 10,
          output_tokens: 10,
          total_tokens: 20,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      },
    });
    res.end();
  }

  function chat(json, res) {
    const tools = Array.isArray(json.tools) ? json.tools : [];
    const isMain = tools.some((t) => t.function?.name === script.shellTool.chat);
    const toolResult = (json.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => ({
        id: m.tool_call_id,
        text: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join(''),
      }));
    const n = next(toolResult, isMain);
    const created = Math.floor(Date.now() / 1000);
    const base = {
      id: `chatcmpl_${created}`,
      object: 'chat.completion.chunk',
      created,
      model: json.model ?? 'mock',
    };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta, finish) =>
      res.write(
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    if (n.call) {
      send(
        {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: n.id,
              type: 'function',
              function: { name: script.shellTool.chat, arguments: JSON.stringify(n.call) },
            },
          ],
        },
        null,
      );
      send({}, 'tool_calls');
    } else {
      send({ role: 'assistant', content: n.text }, null);
      send({}, 'stop');
    }
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } })}\n\n`,
    );
    res.write('data: [DONE]\n\n');
    res.end();
  }

  function gemini(json, res, stream) {
    const decls = (json.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
    const isMain = decls.some((d) => d.name === script.shellTool.gemini);
    // Gemini's function responses carry no call id of the mock's: they come back in order.
    const toolResult = (json.contents ?? [])
      .flatMap((c) => c.parts ?? [])
      .filter((p) => p.functionResponse)
      .map((p, i) => ({
        id: p.functionResponse.id ?? `call_${i + 1}`,
        text: JSON.stringify(p.functionResponse.response),
      }));
    const n = next(toolResult, isMain);
    const parts = n.call
      ? [{ functionCall: { id: n.id, name: script.shellTool.gemini, args: n.call } }]
      : [{ text: n.text }];
    const chunk = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
      modelVersion: 'mock',
    };
    if (!stream) return sendJson(res, chunk);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end();
  }

  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        get results() {
          return script.calls.map((_, i) => byId.get(`call_${i + 1}`) ?? { missing: true });
        },
        requests,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

function sendJson(res, value) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
