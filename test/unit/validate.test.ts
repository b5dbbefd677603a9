/**
 * Trimming as the server trims (src/api/validate.ts serverTrim): Laravel's TrimStrings, i.e. PHP's
 * `preg_replace('~^[\s\x{FEFF}\x{200B}]+|[\s\x{FEFF}\x{200B}]+$~u', '', $value)` with `\s` under PCRE2_UCP,
 * then an empty string becomes null. Checked here without any server: the sandbox tests in client.test.ts
 * show what is sent.
 */
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { charLength, checkProjectName, checkText, isBlank, LIMITS, serverTrim } from '../../src/api/validate';
import { documentListParams, encodeSearch } from '../../src/api/documents';
import { projectListParams } from '../../src/api/projects';

/** Every character PCRE2's `\s` matches under UCP (Unicode Z, plus its horizontal and vertical space lists), plus U+FEFF and U+200B. */
const SERVER_SPACES = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x180e, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
  0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff, 0x200b,
].map((c) => String.fromCharCode(c));

const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('expected a refusal');
}

describe('serverTrim: trimming as the server does (Laravel TrimStrings)', () => {
  it('strips each of the server\'s white-space characters from both ends, U+200B and U+FEFF included', () => {
    for (const c of SERVER_SPACES) {
      assert.equal(serverTrim(`${c}${c}name${c}`), 'name', hex(c));
      assert.equal(serverTrim(c), '', `${hex(c)} alone is blank`);
    }
    assert.equal(serverTrim(SERVER_SPACES.join('') + 'x y' + SERVER_SPACES.join('')), 'x y');
  });

  it('differs from String.prototype.trim where the server does: U+200B, U+0085 (NEL) and U+180E', () => {
    for (const c of ['\u200b', '\u0085', '\u180e']) {
      assert.notEqual(`${c}a${c}`.trim(), 'a', `JS trim keeps ${hex(c)} (why serverTrim exists)`);
      assert.equal(serverTrim(`${c}a${c}`), 'a', hex(c));
    }
  });

  it('keeps what the server keeps: inner white space, and invisible characters that are not white space (U+200C, U+200D, U+2060, NUL)', () => {
    assert.equal(serverTrim(' a \u200b b '), 'a \u200b b');
    for (const c of ['\u200c', '\u200d', '\u2060', '\u0000', '\u00ad']) {
      assert.equal(serverTrim(`${c}a${c}`), `${c}a${c}`, `${hex(c)} is not trimmed`);
      assert.equal(isBlank(c), false, hex(c));
    }
    assert.equal(serverTrim('🚀 '), '🚀');
    const s = 'unchanged';
    assert.equal(serverTrim(s), s);
  });

  it('is linear: a 20,480-character text with a long run of spaces inside trims at once', () => {
    const text = `a${' '.repeat(20_000)}b${' '.repeat(400)}`;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) assert.equal(serverTrim(text).length, 20_002);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    assert.ok(ms < 200, `${ms} ms for 20 trims`);
  });

  it('isBlank: undefined, null, empty, or only trimmed characters', () => {
    for (const v of [undefined, null, '', ' ', '\u200b', '\ufeff\u200b\u3000\n']) assert.equal(isBlank(v), true, JSON.stringify(v));
    for (const v of ['0', 'a', '\u200bx']) assert.equal(isBlank(v), false, JSON.stringify(v));
  });
});

describe('checks before sending use the server\'s trim', () => {
  it('a name, prompt or result of only U+200B (or U+FEFF, NEL, U+180E) is refused locally as empty', () => {
    for (const blank of ['\u200b', '\u200b\u200b', '\ufeff\u200b', '\u0085', '\u180e \u200b']) {
      for (const field of ['name', 'prompt', 'result']) {
        const err = refusal(() => checkText(field, blank, 100));
        assert.equal(err.kind, 'validation');
        assert.deepEqual(Object.keys(err.fields ?? {}), [field]);
        assert.match(err.message, /cannot be empty/, `${field} ${JSON.stringify(blank)}`);
      }
    }
  });

  it('each field a person fills in has its own sentence for each problem; any other field is named as the code names it', () => {
    const said = (field: string, value: unknown) => refusal(() => checkText(field, value, 3)).fields?.[field]?.[0];
    const expected: Record<string, string[]> = {
      name: ['The name must be text.', 'The name cannot be empty.', 'The name cannot contain a NUL character.', 'The name can be at most 3 characters (this one has 4).'],
      prompt: ['The prompt must be text.', 'The prompt cannot be empty.', 'The prompt cannot contain a NUL character.', 'The prompt can be at most 3 characters (this one has 4).'],
      result: ['The text must be text.', 'The text cannot be empty.', 'The text cannot contain a NUL character.', 'The text can be at most 3 characters (this one has 4).'],
      keyword: ['keyword must be text.', 'keyword cannot be empty.', 'keyword cannot contain a NUL character.', 'keyword can be at most 3 characters (this one has 4).'],
      constructor: ['constructor must be text.', 'constructor cannot be empty.', 'constructor cannot contain a NUL character.', 'constructor can be at most 3 characters (this one has 4).'],
    };
    for (const [field, sentences] of Object.entries(expected)) {
      assert.deepEqual([said(field, 7), said(field, ' '), said(field, 'a\u0000'), said(field, 'abcd')], sentences, field);
    }
  });

  it('returns the value trimmed as the server will store it', () => {
    assert.equal(checkText('name', '\u200b Plan \ufeff\u200b', LIMITS.name), 'Plan');
    assert.equal(checkText('result', '\u200bline one\n\nline two\n\u200b', LIMITS.result), 'line one\n\nline two');
  });

  it('lengths count code points after that trim (128 allowed, 129 refused; emoji count once)', () => {
    const padded = `\u200b\ufeff ${'x'.repeat(128)} \u200b`;
    assert.equal(checkText('name', padded, LIMITS.name), 'x'.repeat(128));
    const err = refusal(() => checkText('name', `\u200b${'x'.repeat(129)}\u200b`, LIMITS.name));
    assert.match(err.message, /at most 128 characters \(this one has 129\)/);
    assert.equal(charLength('🚀'.repeat(128)), 128);
    assert.equal(checkText('name', `\u200b${'🚀'.repeat(128)}`, LIMITS.name), '🚀'.repeat(128));
    assert.throws(() => checkText('name', '🚀'.repeat(129), LIMITS.name), /129/);
  });

  it('a search of only U+200B / U+FEFF / white space is "no search": no search (or search_by) parameter', () => {
    for (const blank of ['\u200b', '\ufeff', ' \u200b\n', '\u3000\u0085']) {
      assert.deepEqual(documentListParams({ search: blank }), {}, JSON.stringify(blank));
      assert.deepEqual(projectListParams({ search: blank }), {}, JSON.stringify(blank));
    }
    assert.deepEqual(documentListParams({ search: '\u200bcafé\u200b' }), { search: 'café' });
    assert.deepEqual(projectListParams({ search: '\ufeffAcme ' }), { search: 'Acme', search_by: 'project' });
  });

  it('a search trimmed to "0" is still sent escaped (a bare 0 means no search to the server)', () => {
    assert.equal(encodeSearch('\u200b0\u200b'), '\\0');
    assert.equal(encodeSearch(' 50%\ufeff'), '50\\%');
  });

  it('a project name of only U+200B cannot be addressed: refused as empty', () => {
    const err = refusal(() => checkProjectName('\u200b'));
    assert.match(err.message, /cannot be empty/);
    assert.equal(checkProjectName('Acme '), 'Acme ', 'a real name travels as it is (a path segment is not trimmed)');
  });
});
