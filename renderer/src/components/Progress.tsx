// A thin progress bar: determinate when a fraction is known, otherwise a static striped bar (no spinner animation).
export function Progress({ fraction, label }: { readonly fraction?: number | undefined; readonly label: string }) {
  const known = fraction !== undefined && Number.isFinite(fraction);
  const pct = known ? Math.round(Math.min(1, Math.max(0, fraction)) * 100) : undefined;
  return (
    <div
      className={`progress${known ? '' : ' progress--unknown'}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(pct !== undefined ? { 'aria-valuenow': pct } : {})}
    >
      <div className="progress__fill" style={{ width: known ? `${pct}%` : '100%' }} />
    </div>
  );
}
