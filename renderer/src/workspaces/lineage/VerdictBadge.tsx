// A gate verdict (pass, warn, block) as a coloured badge: runs, reasons, scenarios and the decision use it.
import type { Verdict } from '../../../../engines/core/contracts/provgate';

export function VerdictBadge({ verdict }: { readonly verdict: Verdict }) {
  return <span className={`verdict verdict--${verdict}`}>{verdict}</span>;
}
