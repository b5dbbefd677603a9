import vscode = require('vscode');

export const BADGE = { good: vscode.l10n.t('Good'), decent: vscode.l10n.t('Decent'), bad: vscode.l10n.t('Bad') };

/**
 * The average of the reports' scores and the product's badge for it (CONTRACT.md, projects: `result` is the sum;
 * above 79 Good, above 49 Decent, else Bad). Undefined without a result or a report.
 */
export function averageScore(p: { reports: number; result?: number }): { average: number; badge: string } | undefined {
  if (p.result === undefined || !(p.reports > 0)) return undefined;
  const average = p.result / p.reports;
  return { average, badge: average > 79 ? BADGE.good : average > 49 ? BADGE.decent : BADGE.bad };
}
