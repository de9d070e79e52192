// Takes files dropped anywhere on an element: the drop highlight while a file is over it, and the files (or the first) on drop.
import { useState, type DragEvent } from 'react';

export interface FileDrop {
  /** The shared drop-target classes (styles.css) for the element's className, with the highlight while a file is over it. */
  readonly dropClass: string;
  /** Spread onto the element that takes the drop (a whole workspace, so a near miss is not opened by the browser). */
  readonly dropProps: {
    readonly onDragOver: (e: DragEvent) => void;
    readonly onDragLeave: (e: DragEvent) => void;
    readonly onDrop: (e: DragEvent) => void;
  };
}

/** Every dropped file; while `enabled` is false (the user may not import) nothing is highlighted or taken. */
export function useFilesDrop(onFiles: (files: File[]) => void, enabled = true): FileDrop {
  const [dragging, setDragging] = useState(false);
  return {
    dropClass: dragging ? 'drop-target drop-target--over' : 'drop-target',
    dropProps: {
      onDragOver: (e) => {
        if (enabled && e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      },
      // Leaving for a child is not leaving: only a pointer that goes outside the element ends the highlight.
      onDragLeave: (e) => {
        if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setDragging(false);
      },
      onDrop: (e) => {
        e.preventDefault();
        setDragging(false);
        if (enabled && e.dataTransfer.files.length > 0) onFiles([...e.dataTransfer.files]);
      },
    },
  };
}

/** The first dropped file. */
export function useFileDrop(onFile: (file: File) => void): FileDrop {
  return useFilesDrop((files) => {
    const file = files[0];
    if (file) onFile(file);
  });
}
