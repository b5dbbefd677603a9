/**
 * Answers read the same whichever transport carries them: Node's (src/api/nodeTransport.ts, undici) and the
 * browser build's (src/api/fetchTransport.ts, fetch with `emulateCors` acting as a browser page). One answer,
 * from a small server on 127.0.0.1, goes through both; the outcome (the text read, or the error's kind and
 * message) must be the same: byte-order marks, UTF-8 split across chunks, UTF-16, an HTML page from a proxy.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi, isApiError } from '../../src/api';
import { FetchTransport } from '../../src/api/fetchTransport';
import { undiciTransport } from '../../src/api/nodeTransport';
import type { Transport } from '../../src/api/transport';
import { CORS, server } from './apiKit';

const ORIGIN = 'https://vscode.dev';

/** A server on 127.0.0.1 that gives every request the same answer. */
async function oneAnswer(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const srv = http.createServer(handler);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => srv.close(() => r())),
  };
}

describe('the same answer gives the same outcome on Node (undici) and in the browser (fetch)', function () {
  this.timeout(20000);
  const RECORD = {
    data: {
      id: 7, name: 'Café', template: { id: 1, name: 'Freestyle' }, result: 'Déjà vu — ✓ 😀', words: 3, favorite: false,
      created_at: '2023-03-21T15:30:06.000000Z', updated_at: '2023-03-21T15:30:06.000000Z',
    },
    status: 200,
  };
  const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Headers': 'authorization' };

  /** showDocument(7) over both transports against one answer: the record's result, or the error's kind and message. */
  async function both(handler: http.RequestListener): Promise<{ node: string; browser: string }> {
    const srv = await oneAnswer((req, res) => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      handler(req, res);
    });
    const outcome = async (transport: Transport) => {
      const api = createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k-123', timeoutMs: 3000, retries: 0, transport });
      try {
        return `ok ${(await api.showDocument(7)).result}`;
      } catch (e) {
        return isApiError(e) ? `${e.kind} ${e.message}` : `crash ${String(e)}`;
      } finally {
        api.dispose();
      }
    };
    try {
      return { node: await outcome(undiciTransport()), browser: await outcome(new FetchTransport({ emulateCors: { origin: ORIGIN } })) };
    } finally {
      await srv.close();
    }
  }

  it('JSON after a UTF-8 byte-order mark (a PHP file saved with a BOM prints one) reads the same on both', async () => {
    const r = await both((_req, res) => {
      res.writeHead(200, { ...CORS, 'Content-Type': 'application/json' });
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(RECORD))]));
    });
    assert.equal(r.browser, `ok ${RECORD.data.result}`, 'the browser (TextDecoder drops the BOM)');
    assert.equal(r.node, r.browser, 'Node gives the same outcome');
  });

  it('UTF-8 split inside a character across chunks, and an HTML page from a proxy, read the same on both', async () => {
    const bytes = Buffer.from(JSON.stringify(RECORD), 'utf8');
    const cut = bytes.indexOf(Buffer.from('😀')) + 2;
    const split = await both((_req, res) => {
      res.writeHead(200, { ...CORS, 'Content-Type': 'application/json' });
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 30);
    });
    assert.equal(split.browser, `ok ${RECORD.data.result}`);
    assert.equal(split.node, split.browser);
    const html = await both((_req, res) => {
      res.writeHead(200, { ...CORS, 'Content-Type': 'text/html; charset=UTF-8' });
      res.end('<!doctype html><title>Sign in to the proxy</title>');
    });
    assert.match(html.browser, /^badResponse .*web page/);
    assert.equal(html.node, html.browser);
  });
});

describe('odd bytes read the same on Node and in the browser', function () {
  this.timeout(20000);

  /** showDocument(7) over both transports against one answer's bytes. */
  async function both(bytes: Buffer): Promise<{ node: string; browser: string }> {
    const srv = await server((_req, res) => {
      res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
      res.end(bytes);
    });
    const outcome = async (transport: Transport) => {
      const api = createApi({ documentsUrl: srv.url, projectsUrl: srv.url, getKey: () => 'k-123', timeoutMs: 3000, retries: 0, transport });
      try {
        return `ok ${JSON.stringify((await api.showDocument(7)).result)}`;
      } catch (e) {
        return isApiError(e) ? `${e.kind} ${e.message}` : `crash ${String(e)}`;
      } finally {
        api.dispose();
      }
    };
    try {
      return { node: await outcome(undiciTransport()), browser: await outcome(new FetchTransport({ emulateCors: { origin: 'https://vscode.dev' } })) };
    } finally {
      await srv.close();
    }
  }
  const record = (result: string) => ({ data: { id: 7, name: 'n', template: [], result, words: 1, favorite: '1', created_at: null, updated_at: null } });

  it('a byte-order mark inside the text is kept, on both (only a leading one is dropped)', async () => {
    const r = await both(Buffer.from(JSON.stringify(record('a\uFEFFb')), 'utf8'));
    assert.equal(r.browser, `ok ${JSON.stringify('a\uFEFFb')}`);
    assert.equal(r.node, r.browser);
  });

  it('two leading UTF-8 byte-order marks: one is dropped and the second fails as JSON, on both', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const r = await both(Buffer.concat([bom, bom, Buffer.from(JSON.stringify(record('x')))]));
    assert.match(r.browser, /^badResponse .*not valid JSON/);
    assert.equal(r.node, r.browser);
  });

  it('a UTF-16 answer (with its byte-order mark) is not read as UTF-8 JSON, on both', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(record('x')), 'utf16le')]);
    const r = await both(utf16);
    assert.match(r.browser, /^badResponse .*not valid JSON/);
    assert.equal(r.node, r.browser);
  });
});
