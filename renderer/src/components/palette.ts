// The theme's colours as canvas and cytoscape drawings need them: read from the CSS variables of the current theme.

/** A CSS custom property of the document's current theme (grey when it is missing). */
export function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

export interface ThemePalette {
  readonly text: string;
  readonly muted: string;
  readonly panel: string;
  readonly accent: string;
  readonly neg: string;
  readonly warn: string;
  readonly pos: string;
  readonly focus: string;
  readonly border: string;
}

/** Every colour a graph draws with; read again when the theme changes. */
export function themePalette(): ThemePalette {
  return {
    text: cssVar('--text'),
    muted: cssVar('--muted'),
    panel: cssVar('--panel'),
    accent: cssVar('--accent'),
    neg: cssVar('--neg'),
    warn: cssVar('--warn'),
    pos: cssVar('--pos'),
    focus: cssVar('--focus'),
    border: cssVar('--border-strong'),
  };
}
