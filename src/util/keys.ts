/** Whether VS Code's keys are the Mac's (the extension host's platform; in the browser, the browser's). */
export function onMac(): boolean {
  const platform = (globalThis as { process?: { platform?: string } }).process?.platform;
  if (platform) return platform === 'darwin';
  return /Macintosh|Mac OS X/.test((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent ?? '');
}
