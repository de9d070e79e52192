// How every workspace names where a piece of evidence came from (ACH rows, Assessment's evidence sources): the finding's
// title Send to stored with it, else its service, kind and a shortened id; the whole line kept for hover.

/**
 * An evidence row's source, shortened: `replay story “Beacon to 10.0.0.5”` (the finding's title, which Send to stores in
 * quotes) with the link back when the row came from Send to, `replay story c96009ef` when it has no title, `STIX 1a2b3c4d`
 * for an import. Ids are shortened part by part (`dda326ab/S1` for a story of a case), as the workspaces show ids.
 */
export function sourceLabel(source: string | undefined): { readonly label: string; readonly full: string; readonly link?: string } | null {
  if (source === undefined || source.trim() === '') return null;
  const full = source.trim();
  const link = /\((#\/[^\s)]+|https?:\/\/[^\s)]+)\)\s*$/.exec(full)?.[1];
  const sent = /^Sent from ([a-z][a-z0-9-]*) ([a-z][a-z0-9_-]*) (\S+)(?: "(.*))?$/s.exec(full);
  if (sent) {
    const id = (sent[3] ?? '')
      .split('/')
      .map((part) => (/^[0-9a-f]{8}-[0-9a-f-]{27,}$/i.test(part) ? part.slice(0, 8) : part.slice(0, 24)))
      .join('/');
    // The title runs to its closing quote (before the link), or to the end when the stored line was cut.
    const quoted = sent[4]?.replace(/"\s*(?:\((?:#\/|https?:\/\/)[^\s)]+\))?\s*$/, '').trim() ?? '';
    const title = quoted.length > 40 ? `${quoted.slice(0, 39)}\u2026` : quoted;
    return { label: title !== '' ? `${sent[1]} ${sent[2]} \u201c${title}\u201d` : `${sent[1]} ${sent[2]} ${id}`, full, ...(link !== undefined ? { link } : {}) };
  }
  const stix = /^STIX bundle--([0-9a-f]{8})/i.exec(full);
  if (stix) return { label: `STIX ${stix[1]}`, full };
  return { label: full.length > 32 ? `${full.slice(0, 31)}\u2026` : full, full, ...(link !== undefined ? { link } : {}) };
}
