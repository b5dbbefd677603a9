/** js-yaml (installed with ESLint) has no types of its own here: the one function the backup's tests use to read front matter. */
declare module 'js-yaml' {
  export function load(text: string): unknown;
}
