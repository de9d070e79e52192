// Saves text or JSON as a file through a Blob URL (no server round trip, nothing inline for the CSP to object to).

/** Saves `text` as `fileName` with the given media type. */
export function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves `data` as indented JSON. */
export function downloadJson(data: unknown, fileName: string): void {
  downloadText(`${JSON.stringify(data, null, 2)}\n`, fileName, 'application/json');
}
