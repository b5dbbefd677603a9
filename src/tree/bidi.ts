/** Right-to-left text in the views' rows. No vscode, no state. */

/** A character of a right-to-left script (Unicode bidi classes R and AL: Hebrew, Arabic, Syriac, Thaana, N'Ko…). */
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/** FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE. */
export const FSI = '\u2068';
export const PDI = '\u2069';

export function hasRightToLeft(text: string): boolean {
  return RTL.test(text);
}

/**
 * A name shown in a row, isolated when it holds right-to-left text: between FSI and PDI its direction is its own and
 * the row's description stays beside it ("82 words" is not pulled into the name). A left-to-right name is returned as
 * it is, so typing to find a row still matches its first letters.
 */
export function isolateName(name: string): string {
  return hasRightToLeft(name) ? `${FSI}${name}${PDI}` : name;
}
