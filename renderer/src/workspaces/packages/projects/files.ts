// Reads what the analyst dropped or picked as project files: folders walked through the entries API, each file with its path inside the drop.
export interface PickedFile {
  readonly path: string;
  readonly size: number;
  readonly file: File;
}

interface Entry {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  readonly fullPath: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: Entry[]) => void, fail: (e: unknown) => void): void };
}

/** Folders deeper than this are not walked (a dropped home folder must not hang the tab). */
const MAX_DEPTH = 8;
/** Stop walking after this many files: the scan takes 50, the rest are only listed. */
const MAX_WALKED = 2000;

async function walk(entry: Entry, depth: number, out: PickedFile[]): Promise<void> {
  if (out.length >= MAX_WALKED) return;
  if (entry.isFile && entry.file) {
    const file = await new Promise<File>((ok, fail) => entry.file!(ok, fail));
    out.push({ path: entry.fullPath.replace(/^\/+/, ''), size: file.size, file });
    return;
  }
  if (!entry.isDirectory || !entry.createReader || depth >= MAX_DEPTH || entry.name === 'node_modules' || entry.name === '.git') return;
  const reader = entry.createReader();
  // readEntries answers in batches until an empty one.
  for (;;) {
    const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) break;
    for (const e of batch) await walk(e, depth + 1, out);
  }
}

/** Every file of a drop, folders included; falls back to the plain file list where entries are not available. */
export async function droppedFiles(dt: DataTransfer): Promise<PickedFile[]> {
  const entries = [...dt.items]
    .map((i) => (i.kind === 'file' && 'webkitGetAsEntry' in i ? (i.webkitGetAsEntry() as Entry | null) : null))
    .filter((e): e is Entry => e !== null);
  if (entries.length === 0) return pickedFiles([...dt.files]);
  const out: PickedFile[] = [];
  for (const e of entries) await walk(e, 0, out);
  return out;
}

/** Files from a file input: the path inside the chosen folder when one was picked, else the name. */
export function pickedFiles(files: readonly File[]): PickedFile[] {
  return files.map((file) => ({ path: file.webkitRelativePath || file.name, size: file.size, file }));
}
