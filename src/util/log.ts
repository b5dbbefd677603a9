import * as vscode from 'vscode';

/**
 * The extension's one LogOutputChannel. Levels come from "Developer: Set Log Level".
 * As a last line of defence every line is scrubbed of the API key and of bearer tokens.
 */
export class Logger implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private secret: string | undefined;

  constructor(name = 'Content Docs') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** The current key, so that it can be scrubbed should it ever reach a message. */
  setSecret(secret: string | undefined): void {
    this.secret = secret && secret.length >= 4 ? secret : undefined;
  }

  private scrub(line: string): string {
    let out = line.replace(/(bearer\s+)[^\s"',]+/gi, '$1[redacted]');
    if (this.secret) out = out.split(this.secret).join('[redacted]');
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
