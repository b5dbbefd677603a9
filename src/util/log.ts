import * as vscode from 'vscode';

/**
 * The extension's one LogOutputChannel. Levels come from "Developer: Set Log Level".
 * As a last line of defence every line is scrubbed of the API key and of bearer tokens.
 */
export class Logger implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  /** The keys to scrub, per account (`primary`: the key of "Set API Key…"; else an added account's label). */
  private readonly secrets = new Map<string, string>();

  constructor(name = 'Content Docs') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** An account's key (`slot`: which account), so that it can be scrubbed should it ever reach a message. */
  setSecret(secret: string | undefined, slot = 'primary'): void {
    if (secret && secret.length >= 4) this.secrets.set(slot, secret);
    else this.secrets.delete(slot);
  }

  private scrub(line: string): string {
    let out = line.replace(/(bearer\s+)[^\s"',]+/gi, '$1[redacted]');
    for (const secret of this.secrets.values()) out = out.split(secret).join('[redacted]');
    return out;
  }

  trace(line: string): void {
    this.channel.trace(this.scrub(line));
  }
  debug(line: string): void {
    this.channel.debug(this.scrub(line));
  }
  info(line: string): void {
    this.channel.info(this.scrub(line));
  }
  warn(line: string): void {
    this.channel.warn(this.scrub(line));
  }
  error(line: string | Error): void {
    const text = line instanceof Error ? (line.stack ?? line.message) : line;
    this.channel.error(this.scrub(text));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
