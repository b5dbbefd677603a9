/**
 * Plan usage: GET /account typed (src/api/account.ts getAccountUsage, src/api/schemas.ts accountInfoSchema)
 * against the sandbox over real HTTP and against older servers' shapes from a plain node:http stub; the
 * status bar's text, tooltip, warning level and Quick Pick rows (src/model/usageFormat.ts); the creativity
 * level nearest an account's default (src/api/validate.ts); the search match the Documents view uses to
 * place a created document (src/api/collation.ts searchFinds).
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi, type AccountInfo, type ContentApi } from '../../src/api';
import { searchFinds } from '../../src/api/collation';
import { nearestCreativity } from '../../src/api/validate';
import { compact, percent, share, statusText, tooltipText, usageLevel, usageRows, WARN_AT } from '../../src/model/usageFormat';
import { startSandbox, type Sandbox } from '../sandbox/server';

function info(month: AccountInfo['month'], limits: AccountInfo['limits'], extra: Partial<AccountInfo> = {}): AccountInfo {
  return { limits, month, total: {}, ...extra };
}

describe('plan usage: formatting (vscode-free)', () => {
  it('compact figures: units, one decimal under 100 of a unit, truncated (never rounded up to the limit)', () => {
    const cases: Array<[number, string]> = [
      [0, '0'],
      [950, '950'],
      [999, '999'],
      [1000, '1k'],
      [1049, '1k'],
      [12_345, '12.3k'],
      [49_990, '49.9k'],
      [50_000, '50k'],
      [100_000, '100k'],
      [500_000, '500k'],
      [999_999, '999k'],
      [1_000_000, '1M'],
      [1_550_000, '1.5M'],
      [2_000_000_000, '2B'],
    ];
    for (const [n, want] of cases) assert.equal(compact(n), want, `compact(${n})`);
  });

  it('status text: used / limit in words; the count alone when unlimited or the limit is unknown; documents when words are missing; nothing when neither', () => {
    assert.equal(statusText(info({ words: 12_345 }, { words: 50_000 })), '$(sparkle) 12.3k / 50k words');
    assert.equal(statusText(info({ words: 12_345 }, { words: -1 })), '$(sparkle) 12.3k words');
    assert.equal(statusText(info({ words: 1 }, { words: -1 })), '$(sparkle) 1 word');
    assert.equal(statusText(info({ words: 700 }, {})), '$(sparkle) 700 words');
    assert.equal(statusText(info({ documents: 3 }, { documents: 10 })), '$(sparkle) 3 / 10 documents');
    assert.equal(statusText(info({}, { words: 50_000, documents: 10 })), undefined);
  });

  it('share and percent: of a real limit only; percent truncates (89.99 % is 89 %)', () => {
    assert.equal(share(info({ words: 45_000 }, { words: 50_000 }), 'words'), 0.9);
    assert.equal(share(info({ words: 45_000 }, { words: -1 }), 'words'), undefined);
    assert.equal(share(info({ words: 45_000 }, { words: 0 }), 'words'), 1, 'a limit of 0 is all used');
    assert.equal(share(info({ words: 0 }, { words: 0 }), 'words'), 1, 'also before anything counts');
    assert.equal(share(info({}, { words: 50_000 }), 'words'), undefined);
    assert.equal(percent(0.8999), '89 %');
    assert.equal(percent(0.9), '90 %');
    assert.equal(percent(0.07), '7 %');
    assert.equal(percent(1.25), '125 %');
  });

  it('warning from 90 % of the words or of the documents, not below, never on unlimited plans', () => {
    assert.equal(WARN_AT, 0.9);
    assert.equal(usageLevel(info({ words: 44_999 }, { words: 50_000 })), 'normal');
    assert.equal(usageLevel(info({ words: 45_000 }, { words: 50_000 })), 'warning');
    assert.equal(usageLevel(info({ words: 60_000 }, { words: 50_000 })), 'warning');
    assert.equal(usageLevel(info({ words: 10, documents: 9 }, { words: 50_000, documents: 10 })), 'warning');
    assert.equal(usageLevel(info({ words: 10, documents: 8 }, { words: 50_000, documents: 10 })), 'normal');
    assert.equal(usageLevel(info({ words: 9_999_999, documents: 9_999 }, { words: -1, documents: -1 })), 'normal');
    assert.equal(usageLevel(info({}, {})), 'normal');
  });

  it('a limit of 0 (the plan allows none) reads as none allowed, never like an unlimited plan (-1), and warns', () => {
    const none = info({ words: 0, documents: 0 }, { words: 0, documents: 0 });
    const unlimited = info({ words: 0, documents: 0 }, { words: -1, documents: -1 });
    assert.notEqual(statusText(none), statusText(unlimited));
    assert.equal(statusText(none), '$(sparkle) 0 / 0 words');
    assert.equal(usageLevel(none), 'warning', 'every store is refused: the status bar warns');
    assert.equal(usageLevel(unlimited), 'normal');
    assert.match(tooltipText(none), /^Words: 0 \(none allowed by the plan\)$/m);
    assert.match(tooltipText(unlimited), /^Words: 0 \(unlimited\)$/m);
    assert.deepEqual(usageRows(info({ images: 2 }, { images: 0 })), [{ label: 'Images this month', description: '2 (none allowed by the plan)' }]);
  });

  it('tooltip: words and documents this month against the plan, and the plan name', () => {
    const t = tooltipText(info({ words: 12_345, documents: 7 }, { words: 50_000, documents: -1 }, { plan: { name: 'Pro' } }));
    assert.match(t, /^Words: 12,345 of 50,000 \(24 %\)$/m);
    assert.match(t, /^Documents: 7 \(unlimited\)$/m);
    assert.match(t, /^Plan: Pro$/m);
    const bare = tooltipText(info({ words: 5 }, {}));
    assert.match(bare, /^Words: 5$/m);
    assert.doesNotMatch(bare, /Documents|Plan/);
  });

  it('Quick Pick rows: this month against limits (words, documents, images), then totals, then the plan; only what is known', () => {
    const rows = usageRows({
      limits: { words: 50_000, documents: 100, images: -1 },
      month: { words: 45_500, documents: 12, images: 3 },
      total: { words: 1_234_567, documents: 345 },
      plan: { id: 2, name: 'Pro' },
    });
    assert.deepEqual(rows, [
      { label: 'Words this month', description: '45,500 of 50,000 (91 %)' },
      { label: 'Documents this month', description: '12 of 100 (12 %)' },
      { label: 'Images this month', description: '3 (unlimited)' },
      { label: 'Words in total', description: '1,234,567' },
      { label: 'Documents in total', description: '345' },
      { label: 'Plan', description: 'Pro' },
    ]);
    assert.deepEqual(usageRows(info({}, {})), []);
  });

  it("the creativity level nearest the account's default (0, .25, .5, .75, 1; ties to the lower)", () => {
    const cases: Array<[number | undefined, number | undefined]> = [
      [undefined, undefined],
      [NaN, undefined],
      [0, 0],
      [0.1, 0],
      [0.125, 0],
      [0.2, 0.25],
      [0.5, 0.5],
      [0.8, 0.75],
      [0.9, 1],
      [1, 1],
      [3, 1],
      [-1, 0],
    ];
    for (const [v, want] of cases) assert.equal(nearestCreativity(v), want, `nearestCreativity(${v})`);
  });

  it('searchFinds: a literal substring ignoring case and accents; unsure (undefined) only beyond plain text', () => {
    assert.equal(searchFinds('Launch plan for Café', 'cafe'), true);
    assert.equal(searchFinds('Launch plan', 'PLAN'), true);
    assert.equal(searchFinds('Launch plan', 'plans'), false);
    assert.equal(searchFinds('Launch plan', '%'), false, 'a wildcard is a literal character (the client escapes it)');
    assert.equal(searchFinds('Straße', 'strasse'), undefined, 'the collation may equate ß and ss: only the server can tell');
  });
});

describe('plan usage: GET /account typed', () => {
  let sb: Sandbox;
  const apis: ContentApi[] = [];
  function client(url: string): ContentApi {
    const api = createApi({ documentsUrl: url, projectsUrl: url, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
    apis.push(api);
    return api;
  }

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
  });
  after(async () => {
    for (const a of apis) a.dispose();
    await sb.close();
  });

  it('the sandbox account: plan, limits, counters this month and in total, the defaults; one GET /api/v1/account', async () => {
    sb.reseed('default');
    sb.setAccount({
      plan: { name: 'Pro', features: { words: 50_000, documents: 200, images: -1 } },
      counters: { words_month_count: 12_345, documents_month_count: 17, images_month_count: 2, words_total_count: 99_999, documents_total_count: 345, images_total_count: 8 },
      defaultCreativity: 0.8,
    });
    sb.resetRequests();
    const a = await client(sb.docsUrl).getAccountUsage();
    assert.deepEqual(
      sb.requests.map((r) => `${r.method} ${r.path}`),
      ['GET /api/v1/account'],
    );
    assert.equal(a.plan?.name, 'Pro');
    assert.deepEqual(a.limits, { words: 50_000, documents: 200, images: -1 });
    assert.deepEqual(a.month, { words: 12_345, documents: 17, images: 2 });
    assert.deepEqual(a.total, { words: 99_999, documents: 345, images: 8 });
    assert.equal(a.defaultCreativity, 0.8);
    assert.equal(a.defaultLanguage, 'en');
    assert.equal(a.name, 'Sandbox User');
  });

  /** A server answering GET /api/v1/account with `body` (an older server, or an odd one). */
  async function serverAnswering(body: unknown): Promise<{ url: string; close: () => Promise<void> }> {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, close: () => new Promise((r) => server.close(() => r())) };
  }

  it('an older server without counters or features: what is there, the rest undefined (no error)', async () => {
    const s = await serverAnswering({ data: { id: 1, name: 'Old', plan: { id: 1, name: 'Legacy' }, words_month_count: 40 }, status: 200 });
    try {
      const a = await client(s.url).getAccountUsage();
      assert.equal(a.plan?.name, 'Legacy');
      assert.deepEqual(a.limits, { words: undefined, documents: undefined, images: undefined });
      assert.deepEqual(a.month, { words: 40, documents: undefined, images: undefined });
      assert.equal(a.defaultCreativity, undefined);
      assert.equal(statusText(a), '$(sparkle) 40 words');
    } finally {
      await s.close();
    }
  });

  it('odd values: digits as strings are numbers; nulls, wrong types and a missing plan read as unknown; an unwrapped record works', async () => {
    const s = await serverAnswering({
      plan: null,
      words_month_count: '1200',
      documents_month_count: null,
      images_month_count: 'many',
      default_creativity: 'high',
      default_language: 7,
    });
    try {
      const a = await client(s.url).getAccountUsage();
      assert.equal(a.plan, undefined);
      assert.deepEqual(a.month, { words: 1200, documents: undefined, images: undefined });
      assert.equal(a.defaultCreativity, undefined);
      assert.equal(a.defaultLanguage, undefined);
    } finally {
      await s.close();
    }
  });
});
