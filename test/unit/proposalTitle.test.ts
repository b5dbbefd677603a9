/**
 * The proposal diff's title shows Accept and Discard as words. VS Code writes a text-only title action's key beside its
 * word ("Accept Ctrl+Enter"), which wraps onto two lines and is cut off in the title bar: the title's entries are
 * commands of their own with no key, so each reads as one word on one line, while Ctrl+Enter and Escape stay on
 * Accept Proposal and Discard Proposal (the palette, the ready notification and the keys themselves).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CMD } from '../../src/constants';

const ROOT = path.join(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const contributes = pkg.contributes;

type Command = { command: string; title: string; shortTitle?: string; icon?: string };
type Entry = { command: string; when?: string; group?: string };
type Key = { command: string; key: string };

const text = (s: string | undefined) => (s && /^%.*%$/.test(s) ? nls[s.slice(1, -1)] : s);

describe('the proposal diff\'s title: Accept and Discard in words, on one line', () => {
  const title = (contributes.menus['editor/title'] as Entry[]).filter((e) => e.when?.includes('resourceScheme == content-docs-proposal') && e.group?.startsWith('navigation'));
  const keys = contributes.keybindings as Key[];
  const command = (id: string) => (contributes.commands as Command[]).find((c) => c.command === id);

  it('its Accept and Discard are words with no key of their own (VS Code would write the key beside the word)', () => {
    const words = title.map((e) => command(e.command)).filter((c) => c && !c.icon).map((c) => text(c!.shortTitle ?? c!.title));
    assert.deepEqual(words, ['Accept', 'Discard']);
    for (const e of title) {
      assert.deepEqual(keys.filter((k) => k.command === e.command), [], `${e.command} in the title has a key`);
    }
  });

  it('Ctrl+Enter and Escape still accept and discard, and the title\'s entries do what Accept Proposal and Discard Proposal do', () => {
    assert.equal(keys.find((k) => k.command === CMD.proposalAccept)?.key, 'ctrl+enter');
    assert.equal(keys.find((k) => k.command === CMD.proposalDiscard)?.key, 'escape');
    assert.deepEqual(title.map((e) => e.command).filter((c) => c !== CMD.proposalOpenDocument), ['contentDocs.proposalAcceptInTitle', 'contentDocs.proposalDiscardInTitle']);
  });

  it('the title\'s entries are not in the palette (Accept Proposal and Discard Proposal are)', () => {
    const palette = contributes.menus.commandPalette as Entry[];
    for (const id of ['contentDocs.proposalAcceptInTitle', 'contentDocs.proposalDiscardInTitle']) assert.equal(palette.find((e) => e.command === id)?.when, 'false', id);
  });
});
