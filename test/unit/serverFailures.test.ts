/**
 * Server failures in plain words: a 5xx answer keeps the server's first sentence for the writer and puts the rest
 * (the AI provider's address, status and JSON that the real server appends, CONTRACT.md "Error body") in the log and
 * in the error's `detail`, never the API key. Against small servers on 127.0.0.1 that answer as the real server does
 * (the sandbox's 500 gives the first sentence alone).
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { createApi, isApiError, type ApiError, type ClientOptions } from '../../src/api';
import { describeError } from '../../src/util/errors';
import { server } from './apiKit';

/** The error's text for the log (ApiError.detail). */
const detailOf = (e: ApiError): string | undefined => (e as ApiError & { detail?: string }).detail;

const KEY = 'sk-live-5f0c1e2d3b4a69788796a5b4';
/** What the real server answered when its text generator (an OpenAI-compatible endpoint) failed during a store. */
const UPSTREAM =
  'An unexpected error has occurred, please try again.Server error: `POST http://127.0.0.1:8199/v1/chat/completions` resulted in a `500 Internal Server Error` response:\n{"error":{"message":"The model is overloaded","type":"server_error","param":null,"code":null}}';

describe('server failures in plain words (HTTP 5xx)', function () {
  this.timeout(10000);
  let close: Array<() => Promise<void>> = [];
  let logs: string[] = [];

  afterEach(async () => {
    for (const c of close) await c();
    close = [];
    logs = [];
  });

  /** One answer for every request; the error the client throws for a store. */
  async function failure(status: number, body: string, contentType = 'application/json', o: Partial<ClientOptions> = {}): Promise<ApiError> {
    const srv = await server((_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    });
    close.push(srv.close);
    const api = createApi({
      documentsUrl: srv.url,
      projectsUrl: srv.url,
      getKey: () => KEY,
      retries: 0,
      log: (level, line) => logs.push(`${level} ${line}`),
      ...o,
    });
    try {
      await api.storeDocument({ name: 'Launch plan', prompt: 'A plan for the launch', creativity: 0.5 });
    } catch (e) {
      assert.ok(isApiError(e), String(e));
      return e;
    } finally {
      api.dispose();
    }
    assert.fail('the store succeeded');
  }

  it("the AI provider's failure: the writer reads the server's first sentence, the address and the JSON go to the log", async () => {
    const err = await failure(500, JSON.stringify({ message: UPSTREAM, status: 500 }));
    assert.equal(err.kind, 'server');
    assert.equal(err.status, 500);
    assert.equal(err.message, 'The server had a problem (HTTP 500): "An unexpected error has occurred, please try again."');
    assert.equal(
      describeError('Couldn\'t create "Launch plan"', err),
      'Couldn\'t create "Launch plan": the server had a problem (HTTP 500): "An unexpected error has occurred, please try again."',
    );
    for (const hidden of ['127.0.0.1:8199', 'chat/completions', '{', '`', 'Internal Server Error']) {
      assert.ok(!err.message.includes(hidden), `the message shows no "${hidden}": ${err.message}`);
    }
    assert.equal(detailOf(err), UPSTREAM, 'the whole text the server gave is in the error, for the log');
    const logged = logs.filter((l) => l.includes('chat/completions'));
    assert.equal(logged.length, 1, `the rest is logged once: ${JSON.stringify(logs)}`);
    assert.match(logged[0], /^warn \[api\] POST \/documents 500: the server said: An unexpected error/);
  });

  it('a server text in another language keeps its first sentence too; a 5xx with no first sentence says only the status', async () => {
    const de = await failure(
      500,
      JSON.stringify({ message: 'Ein unerwarteter Fehler ist aufgetreten, bitte versuchen Sie es erneut.Server error: `POST https://api.example/v1/chat/completions` resulted in a `503 Service Unavailable` response', status: 500 }),
    );
    assert.equal(de.message, 'The server had a problem (HTTP 500): "Ein unerwarteter Fehler ist aufgetreten, bitte versuchen Sie es erneut."');
    const bare = await failure(500, JSON.stringify({ message: 'Server error: `POST http://10.0.0.5/v1/chat/completions` resulted in a `500 Internal Server Error` response: {"error":{}}', status: 500 }));
    assert.equal(bare.message, 'The server had a problem (HTTP 500). Try again.', 'nothing of an address or JSON is a sentence for the writer');
    assert.match(detailOf(bare) ?? '', /10\.0\.0\.5/, 'all of it is in the detail');
    const unavailable = await failure(503, JSON.stringify({ message: 'Service Unavailable' }));
    assert.equal(unavailable.message, 'The server had a problem (HTTP 503): "Service Unavailable"', 'a 503 keeps its words too');
    assert.equal(detailOf(unavailable), undefined, 'nothing more to log');
    const gateway = await failure(502, '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'text/html');
    assert.equal(gateway.message, 'The server had a problem (HTTP 502). Try again.');
  });

  it('the API key never reaches the message, the detail or the log, even when the server echoes it', async () => {
    const err = await failure(500, JSON.stringify({ message: `An unexpected error has occurred, please try again.Server error: request with Bearer ${KEY} failed: {"key":"${KEY}"}`, status: 500 }));
    assert.ok(!err.message.includes(KEY));
    assert.ok(!(detailOf(err) ?? '').includes(KEY), detailOf(err));
    assert.ok(logs.every((l) => !l.includes(KEY)), JSON.stringify(logs));
    assert.match(detailOf(err) ?? '', /\[the API key\]/, 'where the key was, the detail says so');
  });

  it("the first sentence: up to its end, before any address, code or JSON; nothing when what comes first is no sentence", async () => {
    const cases: Array<[string, string]> = [
      ['Could not generate the text! Details: {"a":1}', '"Could not generate the text!"'],
      ['Version 1.5 failed to answer. Retry.', '"Version 1.5 failed to answer."'],
      ['生成に失敗しました。もう一度お試しください。', '"生成に失敗しました。"'],
      ['{"error":"x"}', '. Try again.'],
      ['see https://status.example.com for details', '. Try again.'],
      [`${'word '.repeat(80)}.`, '. Try again.'],
    ];
    for (const [said, shown] of cases) {
      const err = await failure(500, JSON.stringify({ message: said, status: 500 }));
      assert.equal(err.message, `The server had a problem (HTTP 500)${shown.startsWith('.') ? shown : `: ${shown}`}`, `for ${JSON.stringify(said)}`);
    }
  });
});
